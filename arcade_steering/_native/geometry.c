/* The walls and obstacles near a box: the native step's own broad phase, over the grid
 * Python builds once per change of the geometry (_native/geometry.py). It lists a superset of
 * what numpy's broad phase lists (geometry/_broad_phase.py), each shape once, in ascending
 * order, so that the exact tests after it find what numpy's find, the first of equals too. */

#include "native.h"

/* The columns of geometry/_kernels.py a box test reads. */
enum { AX = 0, AY = 1, BX = 2, BY = 3, RAD = 7 };

/* The cell holding coordinate v on an axis of cells from origin, clamped to 0 .. cells - 1
 * (NaN to 0). */
static intptr_t cell_of(double v, double origin, double cell, intptr_t cells) {
    double at = floor((v - origin) / cell);
    if (!(at >= 0.0)) return 0;
    if (at >= (double)(cells - 1)) return cells - 1;
    return (intptr_t)at;
}

/* Whether shape j's capsule's bounding box meets the box [lo, hi]. */
static int box_meets(const as_shapes *shapes, intptr_t j, vec2 lo, vec2 hi) {
    const double *c = shapes->cols;
    intptr_t m = shapes->m;
    double r = c[RAD * m + j];
    double ax = c[AX * m + j], ay = c[AY * m + j], bx = c[BX * m + j], by = c[BY * m + j];
    return (ax < bx ? ax : bx) - r <= hi.x && (ax > bx ? ax : bx) + r >= lo.x &&
           (ay < by ? ay : by) - r <= hi.y && (ay > by ? ay : by) + r >= lo.y;
}

/* The table row of a cell (column * ny + row), or -1 for an empty cell: CellTable.rows. */
static intptr_t table_row(const as_geometry *g, intptr_t cell) {
    if (!g->keys) return cell;
    uint64_t home = ((uint64_t)cell * UINT64_C(0x9E3779B97F4A7C15)) >> g->shift;
    for (intptr_t p = 0; p < g->probes; p++)
        if (g->keys[(intptr_t)home + p] == cell) return (intptr_t)home + p;
    return -1;
}

static void sort_ascending(intptr_t *values, intptr_t k) {
    for (intptr_t i = 1; i < k; i++) {
        intptr_t v = values[i], j = i;
        for (; j > 0 && values[j - 1] > v; j--) values[j] = values[j - 1];
        values[j] = v;
    }
}

intptr_t shapes_near(as_geometry *g, intptr_t first, intptr_t stop, vec2 lo, vec2 hi) {
    intptr_t k = 0;
    if (stop <= first) return 0;
    intptr_t ix0 = cell_of(lo.x, g->origin_x, g->cell, g->nx);
    intptr_t ix1 = cell_of(hi.x, g->origin_x, g->cell, g->nx);
    intptr_t iy0 = cell_of(lo.y, g->origin_y, g->cell, g->ny);
    intptr_t iy1 = cell_of(hi.y, g->origin_y, g->cell, g->ny);
    if ((ix1 - ix0 + 1) * (iy1 - iy0 + 1) > stop - first) { /* wide: every shape, in order */
        for (intptr_t j = first; j < stop; j++)
            if (box_meets(&g->shapes, j, lo, hi)) g->found[k++] = j;
        return k;
    }
    intptr_t query = ++g->queries;
    for (intptr_t ix = ix0; ix <= ix1; ix++) {
        for (intptr_t iy = iy0; iy <= iy1; iy++) {
            intptr_t at = table_row(g, ix * g->ny + iy);
            if (at < 0) continue;
            intptr_t end = g->first[at] + g->count[at];
            for (intptr_t p = g->first[at]; p < end; p++) {
                intptr_t j = g->items[p];
                if (j < first || j >= stop || g->seen[j] == query) continue;
                g->seen[j] = query;
                if (box_meets(&g->shapes, j, lo, hi)) g->found[k++] = j;
            }
        }
    }
    sort_ascending(g->found, k);
    return k;
}

int check_geometry_sizes(const as_geometry *g) {
    intptr_t m = g->shapes.m;
    if (m < 0 || g->n_walls < 0 || g->n_walls > m || g->listings < 0) return AS_ERR_GEOMETRY;
    if (m > 0 && (!g->shapes.cols || !g->shapes.start || !g->shapes.turn || !g->seen ||
                  !g->found))
        return AS_ERR_GEOMETRY;
    if (g->nx < 1 || g->ny < 1 || g->nx > INTPTR_MAX / g->ny) return AS_ERR_GEOMETRY;
    if (!g->keys && g->rows != g->nx * g->ny) return AS_ERR_GEOMETRY;
    if (g->keys && (g->shift < 2 || g->shift > 63 || g->probes < 1 ||
                    g->probes > INTPTR_MAX - ((intptr_t)1 << (64 - g->shift)) ||
                    g->rows < ((intptr_t)1 << (64 - g->shift)) + g->probes - 1))
        return AS_ERR_GEOMETRY;
    if (!(g->cell > 0.0) || !isfinite(g->cell) || !isfinite(g->origin_x) ||
        !isfinite(g->origin_y) || !g->first || !g->count)
        return AS_ERR_GEOMETRY;
    if (g->listings > 0 && !g->items) return AS_ERR_GEOMETRY;
    return AS_OK;
}

int as_check_geometry(const as_geometry *g) {
    int status = check_geometry_sizes(g);
    if (status != AS_OK) return status;
    for (intptr_t c = 0; c < g->rows; c++)
        if (g->first[c] < 0 || g->count[c] < 0 || g->count[c] > g->listings - g->first[c])
            return AS_ERR_GEOMETRY;
    for (intptr_t p = 0; p < g->listings; p++)
        if (g->items[p] < 0 || g->items[p] >= g->shapes.m) return AS_ERR_GEOMETRY;
    return AS_OK;
}

/* geometry/_cell_lists._EDGE: a segment within this much of a cell (in cells) crosses it. */
#define EDGE 1e-9

/* The cells floor(lo - EDGE) .. floor(hi + EDGE) of an axis of cells, clipped to it, into
 * from and to; whether any is left. A NaN bound (coordinates overflowing) reaches the end. */
static int cell_span(double lo, double hi, intptr_t cells, intptr_t *from, intptr_t *to) {
    double a = floor(lo - EDGE), b = floor(hi + EDGE), last = (double)(cells - 1);
    if (isnan(a)) a = 0.0;
    if (isnan(b)) b = last;
    if (a > last || b < 0.0 || a > b) return 0;
    *from = a > 0.0 ? (intptr_t)a : 0;
    *to = b < last ? (intptr_t)b : cells - 1;
    return 1;
}

intptr_t shapes_along(as_geometry *g, intptr_t first, intptr_t stop, vec2 a, vec2 b) {
    intptr_t k = 0, c0, c1, r0, r1;
    if (stop <= first) return 0;
    double scale = 1.0 / g->cell; /* _cell_lists.crossed_cells, in cells, x ascending */
    vec2 p = {(a.x - g->origin_x) * scale, (a.y - g->origin_y) * scale};
    vec2 r = {(b.x - g->origin_x) * scale, (b.y - g->origin_y) * scale};
    if (p.x > r.x) {
        vec2 swap = p;
        p = r;
        r = swap;
    }
    if (!cell_span(p.x, r.x, g->nx, &c0, &c1)) return 0;
    if (!cell_span(fmin(p.y, r.y), fmax(p.y, r.y), g->ny, &r0, &r1)) return 0;
    if ((c1 - c0 + 1) + (r1 - r0 + 1) > stop - first) { /* long: every shape, in order */
        for (intptr_t j = first; j < stop; j++) g->found[k++] = j;
        return k;
    }
    double dx = r.x - p.x;
    double slope = (r.y - p.y) / (dx > 0.0 ? dx : 1.0);
    intptr_t query = ++g->queries;
    for (intptr_t column = c0; column <= c1; column++) {
        /* the y span in this column: from the segment's ends, or where it crosses the
         * column's borders */
        double left = (double)column, right = left + 1.0;
        double ya = left <= p.x ? p.y : p.y + (left - p.x) * slope;
        double yb = right >= r.x ? r.y : p.y + (right - p.x) * slope;
        if (isnan(ya) || isnan(yb)) {
            ya = -INFINITY;
            yb = INFINITY;
        }
        if (!cell_span(fmin(ya, yb), fmax(ya, yb), g->ny, &r0, &r1)) continue;
        for (intptr_t row = r0; row <= r1; row++) {
            intptr_t listed = table_row(g, column * g->ny + row);
            if (listed < 0) continue;
            intptr_t end = g->first[listed] + g->count[listed];
            for (intptr_t at = g->first[listed]; at < end; at++) {
                intptr_t j = g->items[at];
                if (j < first || j >= stop || g->seen[j] == query) continue;
                g->seen[j] = query;
                g->found[k++] = j;
            }
        }
    }
    return k;
}
