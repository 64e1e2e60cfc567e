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

/* avoid.AvoidObstacles.steer for one agent: the nearest threat among its candidates (the
 * first of equals, first_min), passed on the side kept for it. cursor: the first candidate
 * not yet read. params: buffer, braking. */
vec2 avoid_obstacles(const agent *a, as_obstacles *set, intptr_t *cursor,
                            const double *params) {
    double speed = sqrt(a->velocity.x * a->velocity.x + a->velocity.y * a->velocity.y);
    double length = set->length[a->row];
    double swath = a->radius + params[0];
    double best = INFINITY, size = 0.0, shape = -1.0;
    vec2 local = ZERO;
    intptr_t p = *cursor;
    for (; p < set->count && set->query[p] == a->row; p++) {
        vec2 here;
        double key = obstacle_key(a, load(set->centre, p), set->size[p], swath, length, &here);
        if (key < best) {
            best = key;
            local = here;
            size = set->size[p];
            shape = set->shape[p];
        }
    }
    *cursor = p;
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
                                 cruise, params[1], slowest);
    desired = cmul(desired, a->heading);
    vec2 change = {desired.x - a->velocity.x, desired.y - a->velocity.y};
    return scaled(change, 1.0 / a->response_time);
}

/* Every obstacle set: its state there for the n agents, its candidates grouped by asking
 * agent (0 <= query < n, non-decreasing). */
int check_obstacles(const as_program *program, intptr_t n) {
    for (intptr_t s = 0; s < program->n_obstacles; s++) {
        const as_obstacles *set = program->obstacles + s;
        if (set->count < 0) return AS_ERR_OBSTACLES;
        if (n > 0 && (!set->length || !set->chosen || !set->side || !set->cruise))
            return AS_ERR_OBSTACLES;
        if (set->count > 0 && (!set->query || !set->shape || !set->centre || !set->size))
            return AS_ERR_OBSTACLES;
        intptr_t last = 0;
        for (intptr_t p = 0; p < set->count; p++) {
            if (set->query[p] < last || set->query[p] >= n) return AS_ERR_OBSTACLES;
            last = set->query[p];
        }
    }
    return AS_OK;
}
