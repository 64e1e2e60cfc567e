/* Interpose (behaviors/tactics.py): the midpoint of where two targets will be, each read per
 * step into a leader set of its own (as_leaders, their headings unused). */

#include "native.h"

/* tactics.Interpose.steer for one agent. params: max_prediction, slowing_radius, tolerance. */
vec2 interpose(const agent *a, const as_leaders *one, const as_leaders *other,
               const double *params) {
    double max_prediction = params[0], slowing_radius = params[1], tolerance = params[2];
    intptr_t i = a->row;
    if (one->gone[i] || other->gone[i]) return ZERO; /* Targets.silence, of either */
    vec2 middle = scaled(plus(load(one->position, i), load(other->position, i)), 0.5);
    vec2 drift = scaled(plus(load(one->velocity, i), load(other->velocity, i)), 0.5);
    /* Predict only for the way to the braking zone. */
    double remaining = maximum(length(minus(middle, a->position)) - slowing_radius, 0.0);
    double lookahead = minimum(remaining / a->max_speed, max_prediction);
    vec2 aim = plus(middle, scaled(drift, lookahead));
    /* leader.station_velocity */
    vec2 arrive = arrive_velocity(a, aim, slowing_radius, tolerance);
    vec2 desired = truncate(plus(drift, arrive), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}
