/* AvoidObstacles (behaviors/avoid.py, _avoid_kernels.py). */

#include "native.h"

/* avoid.MIN_CRUISE */
#define MIN_CRUISE 0.25

/* _avoid_kernels.obstacle_keys for one candidate: its centre in the agent's frame, its key. */
static double obstacle_key(const agent *a, vec2 centre, double size, double swath,
                           double length, vec2 *local) {
    vec2 offset = {centre.x - a->position.x, centre.y - a->position.y};
    double x = offset.x * a->heading.x + offset.y * a->heading.y; /* _avoid_kernels.in_frame */
    double y = offset.y * a->heading.x - offset.x * a->heading.y;
    local->x = x;
    local->y = y;
    double clear = size + swath;
    double room = clear * clear - y * y;
    double contact = x - sqrt(maximum(room, 0.0));
    double key = (x > 0.0 && room > 0.0 && contact <= length) ? maximum(contact, 0.0) : INFINITY;
    double overlap = sqrt(x * x + y * y) - size - a->radius; /* _avoid_kernels.lengths_of */
    return overlap < 0.0 ? overlap : key;
}

/* _avoid_kernels.pass_velocity for one agent */
static vec2 pass_velocity(vec2 local, double clear, double touch, double side,
                          double distance_ratio, double cruise, double braking, double slowest) {
    double distance = sqrt(local.x * local.x + local.y * local.y);
    double size = distance;
    if (distance <= 0.0) {
        local.x = 1.0;
        local.y = 0.0;
        size = 1.0;
    }
    double ratio = minimum(clear / maximum(distance, 1e-12), 1.0);
    vec2 turn = {sqrt(1.0 - ratio * ratio), side * ratio};
    if (distance < clear) {
        double beyond = (clear - distance) / maximum(clear - touch, 1e-9);
        double angle = 0.5 * PI * minimum(beyond, 1.0);
        turn.x = -sin(angle);
        turn.y = side * cos(angle);
    }
    double closeness = 1.0 - minimum(maximum(distance_ratio, 0.0), 1.0);
    double speed = maximum(cruise * (1.0 - braking * closeness), slowest);
    return scaled(cmul(scaled(local, 1.0 / size), turn), speed);
}

/* avoid.AvoidObstacles.steer for one agent: the nearest threat among the obstacles near its
 * detection box (the first of equals, first_min), passed on the side kept for it.
 * params: length, min_length, buffer, braking. */
vec2 avoid_obstacles(const agent *a, as_geometry *geometry, as_obstacles *set,
                     const double *params) {
    double speed = sqrt(a->velocity.x * a->velocity.x + a->velocity.y * a->velocity.y);
    double length = look_ahead(a, params[0]); /* avoid.obstacle_candidates */
    length += params[1];
    double swath = a->radius + params[2];
    double reach = length + swath; /* the detection box lies within it */
    vec2 lo = {a->position.x - reach, a->position.y - reach};
    vec2 hi = {a->position.x + reach, a->position.y + reach};
    intptr_t k = shapes_near(geometry, geometry->n_walls, geometry->shapes.m, lo, hi);
    const double *cols = geometry->shapes.cols;
    intptr_t m = geometry->shapes.m;
    double best = INFINITY, size = 0.0, shape = -1.0;
    vec2 local = ZERO;
    for (intptr_t p = 0; p < k; p++) {
        intptr_t j = geometry->found[p];
        vec2 here, centre = {cols[j], cols[m + j]}; /* _kernels' columns AX, AY */
        double radius = cols[7 * m + j];            /* RAD */
        double key = obstacle_key(a, centre, radius, swath, length, &here);
        if (key < best) {
            best = key;
            local = here;
            size = radius;
            shape = (double)j;
        }
    }
    double previous = set->chosen[a->row];
    double kept = set->side[a->row], met = set->cruise[a->row];
    set->chosen[a->row] = shape;
    set->side[a->row] = 0.0;
    set->cruise[a->row] = NAN;
    if (shape < 0.0) return ZERO;
    set->threats++;
    int same_threat = previous == shape;
    double side = local.y > 0.0 ? -1.0 : 1.0;
    if (same_threat && kept != 0.0) side = kept;
    double slowest = MIN_CRUISE * a->max_speed;
    double cruise = same_threat && !isnan(met) ? met : maximum(speed, slowest);
    set->side[a->row] = side;
    set->cruise[a->row] = cruise;
    vec2 desired = pass_velocity(local, size + swath, size + a->radius, side, best / length,
                                 cruise, params[3], slowest);
    desired = cmul(desired, a->heading);
    vec2 change = {desired.x - a->velocity.x, desired.y - a->velocity.y};
    return scaled(change, 1.0 / a->response_time);
}

/* Every obstacle set: its state there for the n agents. */
int check_obstacles(const as_program *program, intptr_t n) {
    for (intptr_t s = 0; s < program->n_obstacles; s++) {
        const as_obstacles *set = program->obstacles + s;
        if (n > 0 && (!set->chosen || !set->side || !set->cruise)) return AS_ERR_OBSTACLES;
    }
    return AS_OK;
}
