/* FollowWaypoints (behaviors/waypoints.py): seek one waypoint after another, each agent's
 * index and sense read and written in place; the lists are read per step, as numpy reads
 * them (waypoints.waypoint_lists). */

#include "native.h"

/* waypoints.MODES, as the C numbers them */
#define LOOP 0
#define PINGPONG 1
#define ONCE 2

/* waypoints.next_waypoint for an agent that reached its waypoint. */
static void next_waypoint(double *index, double *sense, double count, int32_t mode) {
    if (mode == LOOP) {
        *index = fmod(*index + 1.0, count); /* numpy's remainder, for operands >= 0 */
    } else if (mode == ONCE) {
        *index = minimum(*index + 1.0, count - 1.0);
    } else {
        if (*index + *sense < 0.0 || *index + *sense > count - 1.0) *sense = -*sense;
        *index += *sense;
    }
}

/* waypoints.advance_reached for one agent: past every waypoint in a row within reach, at most
 * set->passes of them (the most points of a list of the batch, as numpy's passes). */
static void advance_reached(const agent *a, const as_waypoints *set, double *index,
                            double *sense, double arrive_radius) {
    intptr_t first = set->first[a->row];
    double count = set->count[a->row];
    for (intptr_t pass = 0; pass < set->passes; pass++) {
        double at = *index;
        vec2 goal = load(set->points, first + (intptr_t)at);
        if (!(length(minus(goal, a->position)) <= arrive_radius)) return;
        next_waypoint(index, sense, count, set->mode);
        if (*index == at) return; /* "once" stays on its last point */
    }
}

/* waypoints.FollowWaypoints.steer for one agent. params: arrive_radius, slowing_radius,
 * tolerance. */
vec2 follow_waypoints(const agent *a, as_waypoints *set, const double *params) {
    double *state = set->state + 2 * a->row;
    if (isnan(state[0])) { /* new to it: the first waypoint, forwards */
        state[0] = 0.0;
        state[1] = 1.0;
    }
    double index = minimum(state[0], set->count[a->row] - 1.0); /* a Path may have lost points */
    double sense = state[1];
    advance_reached(a, set, &index, &sense, params[0]);
    state[0] = index;
    state[1] = sense;
    vec2 goal = load(set->points, set->first[a->row] + (intptr_t)index);
    /* "once": brake for the last point from the first of its repeats on, as if it were one. */
    if (set->mode == ONCE && index >= set->final[a->row])
        return arrive(a, goal, params[1], params[2]);
    return seek(a, goal);
}

/* Every waypoint set's arrays there, its mode known, each agent's list within the points
 * (at least one of them) and its state a whole index >= 0 and a sense of +1 or -1, or new
 * (NaN): then every index it reaches lies within its list. */
int check_waypoints(const as_program *program, intptr_t n) {
    if (program->n_waypoints < 0 || program->n_waypoints > AS_MAX_STACK) return AS_ERR_PROGRAM;
    if (program->n_waypoints > 0 && program->waypoints == NULL) return AS_ERR_PROGRAM;
    for (intptr_t s = 0; s < program->n_waypoints; s++) {
        const as_waypoints *set = program->waypoints + s;
        if (n == 0) continue;
        if (!set->points || !set->first || !set->count || !set->state) return AS_ERR_STATE;
        if (set->mode < LOOP || set->mode > ONCE || (set->mode == ONCE && !set->final))
            return AS_ERR_STATE;
        for (intptr_t i = 0; i < n; i++) {
            double count = set->count[i], index = set->state[2 * i];
            double sense = set->state[2 * i + 1];
            if (!(count >= 1.0 && count == floor(count) && count <= (double)set->m))
                return AS_ERR_STATE;
            if (set->first[i] < 0 || set->first[i] > set->m - (intptr_t)count) return AS_ERR_STATE;
            if (isnan(index)) continue;
            if (!(index >= 0.0 && index == floor(index) && isfinite(index))) return AS_ERR_STATE;
            if (sense != 1.0 && sense != -1.0) return AS_ERR_STATE;
        }
    }
    return AS_OK;
}
