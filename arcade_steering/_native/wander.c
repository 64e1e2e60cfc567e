/* Wander (behaviors/wander.py): seek a point on a circle ahead of the agent. The point's angle
 * is walked in Python before the call (wander.wander_angles, the numpy component's own walk:
 * the same draws from the world's generator, in the same order) and read per step. */

#include "native.h"

/* wander.Wander.steer for one agent, at its walked angle. params: radius, distance. */
vec2 wander(const agent *a, const as_wander *set, const double *params) {
    double radius = params[0], distance = params[1], angle = set->angle[a->row];
    /* wander.wander_targets */
    vec2 side = {-a->heading.y, a->heading.x}; /* vec.perpendicular */
    vec2 forward = plus(scaled(a->heading, cos(angle)), scaled(side, sin(angle)));
    vec2 target = plus(plus(a->position, scaled(a->heading, distance)), scaled(forward, radius));
    return seek(a, target);
}

/* Every wander set's angles there. */
int check_wanders(const as_program *program, intptr_t n) {
    if (program->n_wanders < 0 || program->n_wanders > AS_MAX_STACK) return AS_ERR_PROGRAM;
    if (program->n_wanders > 0 && program->wanders == NULL) return AS_ERR_PROGRAM;
    for (intptr_t s = 0; s < program->n_wanders; s++)
        if (n > 0 && !program->wanders[s].angle) return AS_ERR_STATE;
    return AS_OK;
}
