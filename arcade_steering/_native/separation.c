/* Separation (behaviors/group.py). */

#include "native.h"

/* group.separation_push for one pair: away from the neighbour at offset, distance px. */
static vec2 push(const agent *a, double other_radius, vec2 offset, double distance,
                 double reach) {
    double contact = fmin(a->radius + other_radius, 0.5 * reach);
    double weight = (reach - distance) / fmax(reach - contact, 1e-9);
    weight = fmax(weight, 0.0);
    return distance != 0.0 ? scaled(offset, -(weight / distance)) : scaled(spread(a->slot), weight);
}

/* Separation.steer: the pushes summed over the agent's pairs, times max_speed /
 * response_time. cursor: the first pair not yet read (pairs grouped by agent, check_pairs). */
vec2 separation(const agent *a, const as_agents *agents, const as_pairs *pairs,
                       intptr_t *cursor, double reach) {
    vec2 sum = ZERO;
    intptr_t p = *cursor;
    for (; p < pairs->count && pairs->query[p] == a->row; p++) {
        vec2 one = push(a, agents->radius[pairs->other[p]], load(pairs->offset, p),
                        pairs->distance[p], reach);
        sum.x += one.x;
        sum.y += one.y;
    }
    *cursor = p;
    return scaled(sum, a->max_speed / a->response_time);
}

/* The same, its pairs found as neighbors.radius finds them in a world of few agents (every
 * agent but itself within reach, in the world's order). */
vec2 separation_among_all(const agent *a, const as_agents *agents,
                                 const as_program *program, double reach) {
    double limit = reach * reach;
    vec2 sum = ZERO;
    for (intptr_t j = 0; j < program->n_world; j++) {
        intptr_t other = program->world[j];
        if (other == a->slot) continue;
        vec2 offset = {agents->position[2 * other] - a->position.x,
                       agents->position[2 * other + 1] - a->position.y};
        double dist2 = offset.x * offset.x + offset.y * offset.y;
        if (!(dist2 <= limit)) continue;
        vec2 one = push(a, agents->radius[other], offset, sqrt(dist2), reach);
        sum.x += one.x;
        sum.y += one.y;
    }
    return scaled(sum, a->max_speed / a->response_time);
}

/* Every pair set: its arrays there, its pairs grouped by asking agent (0 <= query < n,
 * non-decreasing), every neighbour a slot of the columns. */
int check_pairs(const as_program *program, const as_agents *agents, intptr_t n) {
    if (program->n_world < 0 || (program->n_world > 0 && program->world == NULL))
        return AS_ERR_PAIRS;
    for (intptr_t j = 0; j < program->n_world; j++)
        if (program->world[j] < 0 || program->world[j] >= agents->capacity) return AS_ERR_PAIRS;
    for (intptr_t s = 0; s < program->n_pairs; s++) {
        const as_pairs *pairs = program->pairs + s;
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
