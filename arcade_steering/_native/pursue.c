/* Pursue, Evade and MatchVelocity (behaviors/seek.py, tactics.py): a moving target's
 * position and velocity, read per step into a leader set (as_leaders, its heading unused). */

#include "native.h"

/* seek.predicted_position: where the quarry will be when reached. */
static vec2 predicted(const agent *a, vec2 quarry, vec2 velocity, double max_prediction) {
    double lookahead = minimum(length(minus(quarry, a->position)) / a->max_speed, max_prediction);
    return plus(quarry, scaled(velocity, lookahead));
}

/* seek.Pursue: seek where the quarry will be. params: max_prediction. */
vec2 pursue(const agent *a, const as_leaders *set, const double *params) {
    if (set->gone[a->row]) return ZERO; /* Targets.silence */
    vec2 aim = predicted(a, load(set->position, a->row), load(set->velocity, a->row), params[0]);
    vec2 desired = scaled(normalize(minus(aim, a->position), ZERO), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}

/* seek.Evade: flee from where the threat will be (seek.evade_velocity, flee_velocity without
 * a panic distance), within threat_range of the threat. params: threat_range,
 * max_prediction. */
vec2 evade(const agent *a, const as_leaders *set, const double *params) {
    vec2 threat = load(set->position, a->row);
    if (set->gone[a->row] || !(length(minus(threat, a->position)) < params[0])) return ZERO;
    vec2 aim = predicted(a, threat, load(set->velocity, a->row), params[1]);
    int moving = a->velocity.x != 0.0 || a->velocity.y != 0.0; /* seek.fallback_directions */
    vec2 fallback = moving ? a->heading : spread(a->slot);
    vec2 desired = scaled(normalize(minus(a->position, aim), fallback), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}

/* tactics.MatchVelocity: the target's velocity, truncated to max_speed. */
vec2 match_velocity(const agent *a, const as_leaders *set) {
    if (set->gone[a->row]) return ZERO;
    vec2 desired = truncate(load(set->velocity, a->row), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}
