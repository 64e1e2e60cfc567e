/* Queries of one (circle, shape) pair in the shape's frame, and the slide: what the solid
 * step's sweep (solid.c) and dig-out (dig_out.c) share (geometry/_frames.py, _kernels.py,
 * solid/contacts.py). Complex numbers are vec2s, multiplied as numpy multiplies them. */

#include "native.h"

/* _kernels' rows of the shape table */
enum { AX, AY, BX, BY, UX, UY, LEN, RAD, GX, GY, NCOL };

shape load_shape(const as_shapes *shapes, intptr_t s) {
    const double *cols = shapes->cols;
    intptr_t m = shapes->m;
    shape sh = {cols[AX * m + s], cols[AY * m + s], cols[BX * m + s], cols[BY * m + s],
                cols[UX * m + s], cols[UY * m + s], cols[LEN * m + s], cols[RAD * m + s],
                cols[GX * m + s], cols[GY * m + s], load(shapes->start, s),
                load(shapes->turn, s)};
    return sh;
}

/* FramedPairs.local */
vec2 to_frame(const shape *sh, vec2 point) { return ctimes(minus(point, sh->start), sh->turn); }

/* _frames.core_offsets */
static vec2 core_offset(vec2 local, double length) {
    double along = minimum(maximum(local.x, 0.0), length);
    vec2 r = {local.x - along, local.y};
    return r;
}

/* _kernels.ray_keys_local for one pair: the signed distance (< 0) where w is inside, else the
 * first contact alpha in [0, 1], or inf for none. */
double ray_key(vec2 w, vec2 q, double length, double radius) {
    double off = w.y, rate = q.y;
    double gap = fabs(off) - radius;
    int in_slab = gap < 0.0;
    int enters = off * rate < 0.0 || in_slab || (off == 0.0 && rate != 0.0);
    if (!enters) return INFINITY; /* what the rest would give: no contact, not inside */
    double t = in_slab ? 0.0 : gap / fabs(rate);
    double y = t * q.x + w.x; /* where along the core the ray enters the slab */
    int along_core = y >= 0.0 && y <= length;
    vec2 f = {w.x - (y < 0.0 ? 0.0 : length), w.y}; /* from the nearer end's disc centre */
    double f2 = inner(f, f); /* the numpy kernel's separate real products (vec.inner) */
    double c = f2 - radius * radius;
    double b = inner(f, q);
    double disc = b * b - inner(q, q) * c;
    int cap = c >= 0.0 && b < 0.0 && disc >= 0.0;
    if (!(along_core && !in_slab)) t = cap ? c / (sqrt(disc) - b) : INFINITY;
    if (t > 1.0) t = INFINITY;
    if (in_slab && (along_core || c < 0.0)) return along_core ? gap : sqrt(f2) - radius;
    return t;
}

/* numpy.sign */
static double sign(double v) { return v > 0.0 ? 1.0 : v < 0.0 ? -1.0 : v; }

/* _kernels.gradient at a start on the core: the shape's fallback direction */
static vec2 gradient(const shape *sh, vec2 p) {
    double wx = p.x - sh->ax, wy = p.y - sh->ay;
    double tau = minimum(maximum(wx * sh->ux + wy * sh->uy, 0.0), sh->length);
    double ex = wx - tau * sh->ux, ey = wy - tau * sh->uy;
    double dist = sqrt(ex * ex + ey * ey);
    vec2 r = {sh->gx, sh->gy};
    if (dist > ON_CORE) {
        r.x = ex / dist;
        r.y = ey / dist;
    }
    return r;
}

/* _kernels.ray_contact_normal */
static vec2 ray_contact_normal(const shape *sh, vec2 p, vec2 s, vec2 d) {
    double along = (p.x - sh->ax) * sh->ux + (p.y - sh->ay) * sh->uy;
    double off = (s.y - sh->ay) * sh->ux - (s.x - sh->ax) * sh->uy;
    double side = off != 0.0 ? sign(off) : -sign(d.y * sh->ux - d.x * sh->uy);
    int on_face = along > 0.0 && along < sh->length && side != 0.0;
    int at_a = along <= 0.0;
    double ex = p.x - (at_a ? sh->ax : sh->bx), ey = p.y - (at_a ? sh->ay : sh->by);
    double dist = sqrt(ex * ex + ey * ey);
    double speed = sqrt(d.x * d.x + d.y * d.y);
    int radial = dist > ON_CORE;
    double over = radial ? dist : maximum(speed, ON_CORE);
    ex = (radial ? ex : -d.x) / over;
    ey = (radial ? ey : -d.y) / over;
    vec2 r = {(on_face ? -sh->uy * side : ex) + 0.0, (on_face ? sh->ux * side : ey) + 0.0};
    return r;
}

/* _kernels.contact_normal */
static vec2 contact_normal(const shape *sh, vec2 p, vec2 s, vec2 d, int inside) {
    double wx = p.x - sh->ax, wy = p.y - sh->ay;
    double tau = wx * sh->ux;
    tau += wy * sh->uy;
    tau = minimum(maximum(tau, 0.0), sh->length);
    double ex = wx - tau * sh->ux, ey = wy - tau * sh->uy;
    double dist = sqrt(ex * ex + ey * ey);
    if (dist > ON_CORE) {
        vec2 r = {ex / dist, ey / dist};
        return r;
    }
    return inside ? gradient(sh, s) : ray_contact_normal(sh, p, s, d);
}

/* _frames.contacts for one pair: the outward normal where a circle swept from start by
 * move meets the shape, its ray key given; the centre then goes to contact. */
vec2 contact_of(const shape *sh, vec2 start, vec2 move, double key, vec2 *contact) {
    double reached = maximum(key, 0.0);
    *contact = plus(start, scaled(move, reached));
    vec2 offset = core_offset(to_frame(sh, *contact), sh->length);
    double distance = modulus(offset);
    if (distance > ON_CORE) return ctimes(scaled(offset, 1.0 / distance), conjugate(sh->turn));
    return contact_normal(sh, *contact, start, move, key < 0.0);
}

/* _frames.overlaps' depth for one pair, the shape framed for a circle of radius 0: how deep a
 * circle of radius at local overlaps it (< 0: the gap). */
double depth_of(const shape *sh, vec2 local, double radius) {
    double depth = sh->size - modulus(core_offset(local, sh->length));
    return depth + radius;
}

/* _frames.overlaps for one pair: its depth, and the outward normal into normal. */
double overlap(const shape *sh, vec2 local, double radius, vec2 *normal) {
    vec2 offset = core_offset(local, sh->length);
    double distance = modulus(offset);
    double depth = sh->size - distance;
    depth += radius;
    if (distance <= ON_CORE) {
        normal->x = sh->gx;
        normal->y = sh->gy;
    } else {
        *normal = ctimes(scaled(offset, 1.0 / distance), conjugate(sh->turn));
    }
    return depth;
}

/* contacts.without_inward */
vec2 without_inward(vec2 v, vec2 normal) {
    double into = minimum(dot(v, normal), 0.0);
    return minus(v, scaled(normal, into));
}

/* contacts.slide: before, the normal met just before, or NULL */
vec2 slide(vec2 v, vec2 normal, const vec2 *before) {
    vec2 along = without_inward(v, normal);
    if (before != NULL && dot(along, *before) < -1e-12 * modulus(along)) return ZERO;
    return along;
}

/* Everything the solid step reads, in range: the circles' agents and the geometry's sizes (its
 * listings were checked when it was made: as_check_geometry). */
int check_circles(const as_agents *agents, const as_geometry *geometry,
                  const as_circles *circles) {
    if (geometry == NULL) return AS_ERR_GEOMETRY;
    int status = check_geometry_sizes(geometry);
    if (status != AS_OK) return status;
    if (circles->k < 0) return AS_ERR_SHAPES;
    if (circles->k > 0 && (circles->slots == NULL || circles->start == NULL))
        return AS_ERR_SHAPES;
    return check_slots(agents, circles->slots, circles->k);
}
