/* FollowLeader (behaviors/leader.py): a station behind a moving leader, kept out of its way;
 * OffsetPursuit: a slot in the leader's frame. */

#include "native.h"

/* leader.MIN_TURN, leader.KEEP_OUT */
#define MIN_TURN 0.5
#define KEEP_OUT 2.0

/* leader.way_round for one follower: the waypoint minus the leader, px; *round set when the
 * way goes round the circle of radius distance. */
static vec2 way_round(const agent *a, vec2 offset, vec2 turn, double distance, int *round) {
    vec2 conj = {turn.x, -turn.y};
    vec2 local = cmul(offset, conj); /* _avoid_kernels.in_frame */
    double behind = -distance;
    int nearer = local.x * (behind - local.x) - local.y * local.y < 0.0;
    vec2 waypoint = {behind, 0.0};
    *round = local.x > behind && nearer && distance > 0.0;
    if (*round) { /* the tangent's touching point, at least MIN_TURN round */
        double across = local.y;
        double side = across > 0.0 ? 1.0 : -1.0;
        if (across == 0.0) side = 1.0 - 2.0 * (double)(a->slot % 2);
        double gap = sqrt(local.x * local.x + local.y * local.y); /* _avoid_kernels.lengths_of */
        double ratio = distance / maximum(gap, distance);
        int wide = ratio > cos(MIN_TURN);
        vec2 rotation = {wide ? cos(MIN_TURN) : ratio,
                         side * (wide ? sin(MIN_TURN) : sqrt(1.0 - ratio * ratio))};
        waypoint = cmul(scaled(local, distance / gap), rotation);
    }
    return cmul(waypoint, turn);
}

/* leader.keep_pace */
static double keep_pace(vec2 offset, vec2 heading, double distance) {
    double along = offset.x * heading.x + offset.y * heading.y;
    return minimum(maximum(1.0 - along / maximum(distance, 10.0), 0.0), 1.0);
}

/* leader.keep_out for one follower: its push out of the circle round the leader. */
static vec2 keep_out(const agent *a, vec2 offset, double distance) {
    double gap = length(offset);
    if (!(gap < distance)) return ZERO;
    double weight = KEEP_OUT * maximum(1.0 - gap / distance, 0.0) * a->max_speed;
    vec2 away = gap <= MIN_LENGTH ? spread(a->slot) : normalize(offset, ZERO);
    return scaled(away, weight);
}

/* leader.FollowLeader.steer for one agent. params: distance, slowing_radius, tolerance. */
vec2 follow_leader(const agent *a, const as_leaders *set, const double *params) {
    double distance = params[0], slowing_radius = params[1], tolerance = params[2];
    intptr_t i = a->row;
    if (set->gone[i]) return ZERO; /* Targets.silence */
    vec2 leader = load(set->position, i), heading = load(set->heading, i);
    vec2 offset = minus(a->position, leader);
    int round;
    vec2 waypoint = way_round(a, offset, heading, distance, &round);
    vec2 station = plus(leader, waypoint);
    double pace = keep_pace(offset, heading, distance);
    if (round) { /* keeping pace, braking for the whole way to the point behind */
        vec2 step = minus(station, a->position);
        vec2 behind = scaled(heading, distance);
        double remaining = length(step) + length(plus(waypoint, behind));
        station = plus(a->position, scaled(normalize(step, ZERO), remaining));
        pace = 1.0;
    }
    /* leader.station_velocity */
    vec2 arrive = arrive_velocity(a, station, slowing_radius, tolerance);
    vec2 desired = truncate(plus(scaled(load(set->velocity, i), pace), arrive), a->max_speed);
    desired = plus(desired, keep_out(a, offset, distance));
    return velocity_force(desired, a->velocity, a->response_time);
}

/* leader.OffsetPursuit.steer for one agent. params: offset (ahead, left), max_prediction,
 * slowing_radius, tolerance. */
vec2 offset_pursuit(const agent *a, const as_leaders *set, const double *params) {
    double ahead = params[0], left = params[1], max_prediction = params[2];
    double slowing_radius = params[3], tolerance = params[4];
    intptr_t i = a->row;
    if (set->gone[i]) return ZERO; /* Targets.silence */
    vec2 heading = load(set->heading, i), velocity = load(set->velocity, i);
    /* leader.local_to_world */
    vec2 slot = {heading.x * ahead + -heading.y * left, heading.y * ahead + heading.x * left};
    slot = plus(load(set->position, i), slot);
    /* Predict only for the way to the braking zone. */
    double remaining = maximum(length(minus(slot, a->position)) - slowing_radius, 0.0);
    double lookahead = minimum(remaining / a->max_speed, max_prediction);
    vec2 aim = plus(slot, scaled(velocity, lookahead));
    /* leader.station_velocity */
    vec2 arrive = arrive_velocity(a, aim, slowing_radius, tolerance);
    vec2 desired = truncate(plus(velocity, arrive), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}

/* Every leader set's arrays there. */
int check_leaders(const as_program *program, intptr_t n) {
    for (intptr_t s = 0; s < program->n_leaders; s++) {
        const as_leaders *set = program->leaders + s;
        if (n > 0 && (!set->position || !set->velocity || !set->heading || !set->gone))
            return AS_ERR_LEADERS;
    }
    return AS_OK;
}
