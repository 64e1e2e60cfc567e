/* Seek, Flee and Arrive (behaviors/seek.py). */

#include "native.h"

/* seek.Seek */
vec2 seek(const agent *a, vec2 target) {
    vec2 offset = {target.x - a->position.x, target.y - a->position.y};
    vec2 desired = scaled(normalize(offset, ZERO), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}

/* seek.Flee, with seek.fallback_directions */
vec2 flee(const agent *a, vec2 threat, double panic_distance) {
    vec2 away = {a->position.x - threat.x, a->position.y - threat.y};
    int moving = a->velocity.x != 0.0 || a->velocity.y != 0.0;
    vec2 fallback = moving ? a->heading : spread(a->slot);
    vec2 desired = scaled(normalize(away, fallback), a->max_speed);
    if (length(away) >= panic_distance) desired = ZERO;
    if (desired.x == 0.0 && desired.y == 0.0) return ZERO;
    return velocity_force(desired, a->velocity, a->response_time);
}

/* seek.arrive_velocity: brake to a stop at target */
vec2 arrive_velocity(const agent *a, vec2 target, double slowing_radius, double tolerance) {
    vec2 offset = {target.x - a->position.x, target.y - a->position.y};
    double distance = length(offset);
    double slope = a->max_speed / fmax(slowing_radius, 1e-9);
    double gentlest = 0.25 / a->response_time;
    if (gentlest < slope) slope = gentlest;
    double braking = 0.8 * (a->max_force / a->mass);
    double knee = braking / (slope * slope);
    double over = braking / slope;
    double parabola = sqrt(maximum(2.0 * braking * distance - over * over, 0.0));
    double speed = distance <= knee ? slope * distance : parabola;
    if (a->max_speed < speed) speed = a->max_speed; /* numpy.minimum: a NaN speed stays */
    if (distance <= tolerance) speed = 0.0;
    return scaled(normalize(offset, ZERO), speed);
}

/* seek.Arrive */
vec2 arrive(const agent *a, vec2 target, double slowing_radius, double tolerance) {
    vec2 desired = arrive_velocity(a, target, slowing_radius, tolerance);
    return velocity_force(desired, a->velocity, a->response_time);
}
