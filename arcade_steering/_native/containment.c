/* Containment (behaviors/containment.py): AvoidWalls' feelers against the region's outline, a
 * geometry of its own (as_geometry, read with the C's broad phase), each agent feeling only
 * its own region's edges; an agent outside its region heads back in at the velocity Python
 * worked out before the call (containment.reentry, the numpy component's own code). */

#include "native.h"

/* containment.Containment.steer for one agent. params: length, side_angle, side_ratio. */
vec2 containment(const agent *a, as_containment *set, const double *params) {
    intptr_t i = a->row;
    if (set->outside[i]) /* heading back in */
        return velocity_force(load(set->desired, i), a->velocity, a->response_time);
    as_geometry *outline = set->outline;
    double front = look_ahead(a, params[0]);
    intptr_t found = walls_in_reach(a, outline, front), k = 0;
    for (intptr_t p = 0; p < found; p++) { /* feel_walls' owners: its own region's edges */
        intptr_t edge = outline->found[p];
        if (set->owner[edge] == set->region[i]) outline->found[k++] = edge;
    }
    return feel_walls(a, outline, k, front, params);
}

/* Every containment set's outline there and consistent, its owners, regions and re-entries
 * there. */
int check_containments(const as_program *program, intptr_t n) {
    if (program->n_containments < 0 || program->n_containments > AS_MAX_STACK)
        return AS_ERR_PROGRAM;
    if (program->n_containments > 0 && program->containments == NULL) return AS_ERR_PROGRAM;
    for (intptr_t s = 0; s < program->n_containments; s++) {
        const as_containment *set = program->containments + s;
        if (n == 0) continue;
        if (!set->outline || check_geometry_sizes(set->outline) != AS_OK) return AS_ERR_GEOMETRY;
        if (set->outline->shapes.m > 0 && !set->owner) return AS_ERR_STATE;
        if (!set->region || !set->outside || !set->desired) return AS_ERR_STATE;
    }
    return AS_OK;
}
