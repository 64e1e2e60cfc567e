/* Separation, Alignment and Cohesion (behaviors/group.py): one pass over an agent's
 * neighbours gathers what the three rules sum.
 *
 * A rule whose neighbours are every agent of the world (among=None), or the agents of the
 * group it asks about (among= groups given as a label per world agent), finds them itself,
 * on a uniform grid over the world's agents built once per call, for more than 64 agents; up
 * to 64, it tests every agent in the world's order, as numpy's index does, to the same bits.
 * With more, each index sums them in the order its own grid finds them: the two paths then
 * agree to rounding, not to the bit. */

#include <stdlib.h>

#include "native.h"

/* Up to this many agents, every agent is tested against every other, no grid. */
#define ALL_PAIRS_MAX 64
/* The grid has at most this many cells per agent (cells grow beyond the reach to keep it). */
#define CELLS_PER_AGENT 4

/* What one rule sums over an agent's neighbours. */
typedef struct {
    intptr_t count;
    vec2 push;     /* group.separation_push, summed */
    vec2 velocity; /* the neighbours' velocities, summed */
    vec2 offset;   /* neighbour minus agent, summed */
} neighbor_sums;

/* group.separation_push for one pair: away from the neighbour at offset, distance px. */
static vec2 push(const agent *a, double other_radius, vec2 offset, double distance,
                 double reach) {
    double contact = fmin(a->radius + other_radius, 0.5 * reach);
    double weight = (reach - distance) / fmax(reach - contact, 1e-9);
    weight = fmax(weight, 0.0);
    return distance != 0.0 ? scaled(offset, -(weight / distance)) : scaled(spread(a->slot), weight);
}

static void add(neighbor_sums *sums, const agent *a, const as_agents *agents, intptr_t other,
                vec2 offset, double distance, double reach) {
    vec2 one = push(a, agents->radius[other], offset, distance, reach);
    sums->count++;
    sums->push.x += one.x;
    sums->push.y += one.y;
    sums->velocity.x += agents->velocity[2 * other];
    sums->velocity.y += agents->velocity[2 * other + 1];
    sums->offset.x += offset.x;
    sums->offset.y += offset.y;
}


/* The world's agents (their places in program->world) sorted into square cells. */
struct neighbor_grid {
    double left, bottom, cell;
    intptr_t columns, rows;
    intptr_t *start; /* (columns * rows + 1,) each cell's first item */
    intptr_t *items; /* (n_world,) world places, ascending within each cell */
    intptr_t *found; /* (n_world,) scratch: one agent's candidates */
    /* The last agent's sums, the reach and the group (labels and label) they were found in. */
    intptr_t memo_row;
    double memo_reach;
    const intptr_t *memo_label;
    intptr_t memo_asked;
    neighbor_sums memo;
};

static int group_rule(int32_t op) {
    return op == AS_SEPARATION || op == AS_ALIGNMENT || op == AS_COHESION;
}

/* Whether the C finds a pair set's neighbours itself: among everyone, or by label. */
static int found_here(const as_pairs *pairs) { return pairs->everyone || pairs->label; }

/* The largest reach of a rule finding its neighbours itself, over the batch's agents; 0 for
 * none. */
static double own_reach(const as_program *program, intptr_t n) {
    double reach = 0.0;
    for (intptr_t i = 0; i < program->n_ops; i++) {
        const int32_t *op = program->ops + 4 * i;
        if (!group_rule(op[0]) || !found_here(program->pairs + op[1])) continue;
        for (intptr_t row = 0; row < n; row++) {
            double r = program->params[row * program->n_params + op[2]];
            if (!(r <= reach)) reach = r; /* NaN or larger */
        }
    }
    return reach;
}

/* A coordinate's column or row, clamped to the grid (NaN to 0). */
static intptr_t clamp_cell(double offset, double cell, intptr_t count) {
    double c = floor(offset / cell);
    return c >= (double)count ? count - 1 : c >= 0.0 ? (intptr_t)c : 0;
}

/* The cell of the agent in slot, or -1 for one not at a finite place. */
static intptr_t cell_of(const neighbor_grid *grid, const as_agents *agents, intptr_t slot) {
    double x = agents->position[2 * slot], y = agents->position[2 * slot + 1];
    if (!isfinite(x) || !isfinite(y)) return -1;
    return clamp_cell(x - grid->left, grid->cell, grid->columns) * grid->rows +
           clamp_cell(y - grid->bottom, grid->cell, grid->rows);
}

void free_neighbor_grid(neighbor_grid *grid) {
    if (!grid) return;
    free(grid->start);
    free(grid->items);
    free(grid->found);
    free(grid);
}

neighbor_grid *build_neighbor_grid(const as_agents *agents, const as_program *program,
                                   intptr_t n) {
    intptr_t m = program->n_world;
    if (m <= ALL_PAIRS_MAX) return NULL;
    double reach = own_reach(program, n);
    if (!(reach > 0.0) || !isfinite(reach)) return NULL;
    double left = INFINITY, bottom = INFINITY, right = -INFINITY, top = -INFINITY;
    for (intptr_t j = 0; j < m; j++) {
        double x = agents->position[2 * program->world[j]];
        double y = agents->position[2 * program->world[j] + 1];
        if (!isfinite(x) || !isfinite(y)) continue;
        left = fmin(left, x), right = fmax(right, x), bottom = fmin(bottom, y), top = fmax(top, y);
    }
    double width = right - left, height = top - bottom;
    if (!isfinite(width) || !isfinite(height)) return NULL; /* none finite, or too far apart */
    double cell = reach, budget = (double)(CELLS_PER_AGENT * m);
    double floor_cell = sqrt(width * height / budget);
    if (cell < floor_cell) cell = floor_cell;
    double columns = floor(width / cell) + 1.0, rows = floor(height / cell) + 1.0;
    while (columns * rows > budget + 2.0 * sqrt(budget) + 1.0) { /* thin strips round up */
        cell *= 1.5;
        columns = floor(width / cell) + 1.0, rows = floor(height / cell) + 1.0;
    }
    neighbor_grid *grid = malloc(sizeof *grid);
    if (!grid) return NULL;
    grid->left = left, grid->bottom = bottom, grid->cell = cell;
    grid->memo_row = -1;
    grid->columns = (intptr_t)columns, grid->rows = (intptr_t)rows;
    intptr_t cells = grid->columns * grid->rows;
    grid->start = calloc((size_t)cells + 1, sizeof(intptr_t));
    grid->items = malloc((size_t)m * sizeof(intptr_t));
    grid->found = malloc((size_t)m * sizeof(intptr_t));
    if (!grid->start || !grid->items || !grid->found) {
        free_neighbor_grid(grid);
        return NULL;
    }
    /* Counting sort by cell, stable: ascending world places within a cell. start[c + 1]
     * counts cell c; summed, start[c] is cell c's first item; filling moves start[c] on to
     * cell c + 1's first, and the shift puts it back. */
    for (intptr_t j = 0; j < m; j++) {
        intptr_t c = cell_of(grid, agents, program->world[j]);
        if (c >= 0) grid->start[c + 1]++;
    }
    for (intptr_t c = 0; c < cells; c++) grid->start[c + 1] += grid->start[c];
    for (intptr_t j = 0; j < m; j++) {
        intptr_t c = cell_of(grid, agents, program->world[j]);
        if (c >= 0) grid->items[grid->start[c]++] = j;
    }
    for (intptr_t c = cells; c > 0; c--) grid->start[c] = grid->start[c - 1];
    grid->start[0] = 0;
    return grid;
}

/* Into sums, the world's agents but this one within reach, of the world places given (all
 * of them, in order, for none); with labels, only those labelled asked. */
static void add_within(neighbor_sums *sums, const agent *a, const as_agents *agents,
                       const as_program *program, const intptr_t *places, intptr_t count,
                       const intptr_t *label, intptr_t asked, double reach) {
    double limit = reach * reach;
    for (intptr_t k = 0; k < count; k++) {
        intptr_t place = places ? places[k] : k;
        if (label && label[place] != asked) continue;
        intptr_t other = program->world[place];
        if (other == a->slot) continue;
        vec2 offset = {agents->position[2 * other] - a->position.x,
                       agents->position[2 * other + 1] - a->position.y};
        double dist2 = offset.x * offset.x + offset.y * offset.y;
        if (dist2 <= limit) add(sums, a, agents, other, offset, sqrt(dist2), reach);
    }
}

/* The world places in the grid cells within reach of the agent, cell by cell; how many. */
static intptr_t candidates(const neighbor_grid *grid, const agent *a, double reach) {
    intptr_t first_column = clamp_cell(a->position.x - reach - grid->left, grid->cell, grid->columns);
    intptr_t last_column = clamp_cell(a->position.x + reach - grid->left, grid->cell, grid->columns);
    intptr_t first_row = clamp_cell(a->position.y - reach - grid->bottom, grid->cell, grid->rows);
    intptr_t last_row = clamp_cell(a->position.y + reach - grid->bottom, grid->cell, grid->rows);
    intptr_t count = 0;
    for (intptr_t column = first_column; column <= last_column; column++) {
        intptr_t cell = column * grid->rows;
        for (intptr_t k = grid->start[cell + first_row]; k < grid->start[cell + last_row + 1]; k++)
            grid->found[count++] = grid->items[k];
    }
    return count;
}

/* The sums over the agent's neighbours within reach, in the order the numpy path sums them
 * (NeighborPairs.sum: pair order): the pairs of set, read from *cursor on (pairs grouped by
 * agent, check_pairs); or, for a set with everyone or labels, every agent of the world (of
 * the group asked about) but itself, in the world's order. */
static neighbor_sums gather(const agent *a, const as_agents *agents, const as_program *program,
                            const as_pairs *pairs, intptr_t *cursor, double reach) {
    neighbor_sums sums = {0, ZERO, ZERO, ZERO};
    if (found_here(pairs)) {
        neighbor_grid *grid = a->grid;
        const intptr_t *label = pairs->label;
        intptr_t asked = label ? pairs->asked[a->row] : -1;
        if (!grid || !isfinite(a->position.x) || !isfinite(a->position.y)) {
            add_within(&sums, a, agents, program, NULL, program->n_world, label, asked, reach);
        } else if (grid->memo_row == a->row && grid->memo_reach == reach &&
                   grid->memo_label == label && grid->memo_asked == asked) {
            sums = grid->memo; /* another rule asking the same, as numpy's shared query */
        } else {
            intptr_t count = candidates(grid, a, reach);
            add_within(&sums, a, agents, program, grid->found, count, label, asked, reach);
            grid->memo_row = a->row, grid->memo_reach = reach, grid->memo = sums;
            grid->memo_label = label, grid->memo_asked = asked;
        }
        return sums;
    }
    intptr_t p = *cursor;
    for (; p < pairs->count && pairs->query[p] == a->row; p++)
        add(&sums, a, agents, pairs->other[p], load(pairs->offset, p), pairs->distance[p], reach);
    *cursor = p;
    return sums;
}

/* Separation.steer: the pushes summed, times max_speed / response_time. */
vec2 separation(const agent *a, const as_agents *agents, const as_program *program,
                const as_pairs *pairs, intptr_t *cursor, double reach) {
    neighbor_sums sums = gather(a, agents, program, pairs, cursor, reach);
    return scaled(sums.push, a->max_speed / a->response_time);
}

/* Alignment.steer: full speed along the neighbours' summed velocity (alignment_velocity),
 * Reynolds' velocity_force; silent where that sum is (nearly) zero. */
vec2 alignment(const agent *a, const as_agents *agents, const as_program *program,
               const as_pairs *pairs, intptr_t *cursor, double reach) {
    neighbor_sums sums = gather(a, agents, program, pairs, cursor, reach);
    if (length(sums.velocity) <= 1e-9) return ZERO;
    vec2 desired = scaled(normalize(sums.velocity, ZERO), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}

/* Cohesion.steer: towards the neighbours' mean position (NeighborPairs.mean), full speed at
 * reach (cohesion_velocity), over response_time; no braking. */
vec2 cohesion(const agent *a, const as_agents *agents, const as_program *program,
              const as_pairs *pairs, intptr_t *cursor, double reach) {
    neighbor_sums sums = gather(a, agents, program, pairs, cursor, reach);
    double scale = 1.0 / (double)(sums.count > 1 ? sums.count : 1);
    vec2 center = sums.count ? scaled(sums.offset, scale) : ZERO;
    vec2 desired = truncate(scaled(center, a->max_speed / reach), a->max_speed);
    return scaled(desired, 1.0 / a->response_time);
}

/* A pair set's labels (given): not with everyone, the asked groups there, each world
 * agent's label -1 .. groups - 1, each asking agent's group 0 .. groups - 1. */
static int check_labels(const as_program *program, const as_pairs *pairs, intptr_t n) {
    if (pairs->everyone || pairs->groups < 0 || (n > 0 && !pairs->asked)) return AS_ERR_PAIRS;
    for (intptr_t j = 0; j < program->n_world; j++)
        if (pairs->label[j] < -1 || pairs->label[j] >= pairs->groups) return AS_ERR_PAIRS;
    for (intptr_t row = 0; row < n; row++)
        if (pairs->asked[row] < 0 || pairs->asked[row] >= pairs->groups) return AS_ERR_PAIRS;
    return AS_OK;
}

/* Every pair set: its arrays there, its pairs grouped by asking agent (0 <= query < n,
 * non-decreasing), every neighbour a slot of the columns; its labels in range. */
int check_pairs(const as_program *program, const as_agents *agents, intptr_t n) {
    if (program->n_world < 0 || (program->n_world > 0 && program->world == NULL))
        return AS_ERR_PAIRS;
    for (intptr_t j = 0; j < program->n_world; j++)
        if (program->world[j] < 0 || program->world[j] >= agents->capacity) return AS_ERR_PAIRS;
    for (intptr_t s = 0; s < program->n_pairs; s++) {
        const as_pairs *pairs = program->pairs + s;
        if (pairs->label && check_labels(program, pairs, n) != AS_OK) return AS_ERR_PAIRS;
        if (pairs->count < 0) return AS_ERR_PAIRS;
        if (pairs->count > 0 &&
            (!pairs->query || !pairs->other || !pairs->offset || !pairs->distance))
            return AS_ERR_PAIRS;
        intptr_t last = 0;
        for (intptr_t p = 0; p < pairs->count; p++) {
            if (pairs->query[p] < last || pairs->query[p] >= n) return AS_ERR_PAIRS;
            if (pairs->other[p] < 0 || pairs->other[p] >= agents->capacity) return AS_ERR_PAIRS;
            last = pairs->query[p];
        }
    }
    return AS_OK;
}
