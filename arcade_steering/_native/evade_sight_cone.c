/* EvadeSightCone (behaviors/sight_cone.py; leader.leader_headings, perception.in_sight,
 * avoid_agents.closest_approach): the leader's look worked out per agent from the leaf's
 * per-agent state, then the follower's way out of the view; with occluded=True, for a
 * follower in view or near it, the line of sight from the leader cast against the walls
 * (perception.occlude). */

#include "native.h"

/* leader.LEADER_MIN_SPEED */
#define LEADER_MIN_SPEED 1.0
/* sight_cone.AWAY_WEIGHT, ANTICIPATION, LOOK_ANTICIPATION, MAX_TURN_AHEAD, WAIT_MARGIN,
 * WAIT_WIDENING (numpy.radians multiplies by pi / 180) */
#define AWAY_WEIGHT 0.5
#define ANTICIPATION 0.25
#define LOOK_ANTICIPATION 0.4
#define MAX_TURN_AHEAD (PI / 2)
#define WAIT_MARGIN 20.0
#define DEGREES (PI / 180.0)
#define WAIT_WIDENING (10.0 * DEGREES)

/* leader.leader_headings: along the leader's velocity while it moves, else the last heading
 * kept, else (never moved) the world's heading of an attached leader, else zero. */
static vec2 leader_heading(const as_agents *agents, as_sight_cones *set, intptr_t row,
                           vec2 velocity, intptr_t leader) {
    double speed = length(velocity);
    vec2 heading = load(set->heading, row);
    if (speed > LEADER_MIN_SPEED)
        heading = scaled(velocity, 1.0 / maximum(speed, LEADER_MIN_SPEED));
    if (isnan(heading.x) && leader >= 0) heading = load(agents->heading, leader);
    store(set->heading, row, heading);
    return isnan(heading.x) ? ZERO : heading;
}

/* sight_cone.anticipated_headings: a leader whose velocity, extrapolated from its last
 * change, will point backwards looks that way already. */
static vec2 anticipated_heading(as_sight_cones *set, intptr_t row, vec2 heading,
                                vec2 velocity, double dt) {
    vec2 before = load(set->velocity_before, row);
    vec2 change = {velocity.x - before.x, velocity.y - before.y};
    if (isnan(change.x)) change.x = 0.0; /* not known yet */
    if (isnan(change.y)) change.y = 0.0;
    double factor = ANTICIPATION / dt;
    vec2 ahead = {velocity.x + change.x * factor, velocity.y + change.y * factor};
    store(set->velocity_before, row, velocity);
    if (ahead.x * velocity.x + ahead.y * velocity.y < 0.0) return normalize(ahead, heading);
    return heading;
}

/* sight_cone.leader_looks: where an attached leader looks, when a component turned its look
 * from its heading. */
static vec2 leader_look(const as_agents *agents, intptr_t leader, vec2 heading) {
    if (leader < 0) return heading;
    vec2 look = load(agents->look, leader), own = load(agents->heading, leader);
    return look.x != own.x || look.y != own.y ? look : heading;
}

/* sight_cone.turned_looks: the look turned on at last step's rate for LOOK_ANTICIPATION s,
 * by at most MAX_TURN_AHEAD. */
static vec2 turned_look(as_sight_cones *set, intptr_t row, vec2 look, double dt) {
    vec2 before = load(set->look_before, row);
    vec2 back = {before.x, -before.y};
    vec2 product = cmul(look, back);
    double turn = atan2(product.y, product.x);
    if (!isfinite(turn)) turn = 0.0; /* the last look unknown */
    double ahead = minimum(maximum(turn * (LOOK_ANTICIPATION / dt), -MAX_TURN_AHEAD),
                           MAX_TURN_AHEAD);
    vec2 rotation = {cos(ahead), sin(ahead)};
    store(set->look_before, row, look);
    return cmul(look, rotation);
}

/* perception.in_sight: whether the view from the apex along facing holds offset. */
static int in_sight(vec2 offset, vec2 facing, double reach, double half_angle) {
    vec2 back = {facing.x, -facing.y};
    vec2 local = cmul(offset, back); /* in the observer's frame */
    double distance = length(offset);
    if (!(distance <= reach && (local.x > -1e-150 || half_angle > 1.5))) return 0;
    double angle = atan2(fabs(local.y), local.x);
    return (facing.x != 0.0 || facing.y != 0.0) && (angle <= half_angle || distance == 0.0);
}

/* sight_cone.escape_directions: sideways towards gap's side of the axis (fallback on it),
 * and away from the leader. */
static vec2 escape_direction(vec2 gap, vec2 heading, double fallback) {
    vec2 left = {-heading.y, heading.x};
    double across = gap.x * left.x + gap.y * left.y;
    double side = fabs(across) > 1e-9 ? (across > 0.0 ? 1.0 : -1.0) : fallback;
    vec2 sideways = scaled(left, side);
    vec2 away = scaled(normalize(gap, sideways), AWAY_WEIGHT);
    vec2 both = {sideways.x + away.x, sideways.y + away.y};
    return normalize(both, sideways);
}

/* sight_cone.stop_inward: cancel the part of relative against out, within response_time,
 * at most max_force. */
static vec2 stop_inward(const agent *a, vec2 relative, vec2 out) {
    double inward = minimum(relative.x * out.x + relative.y * out.y, 0.0);
    return scaled(out, fmin(-inward / a->response_time, a->max_force));
}

/* avoid_agents.closest_approach: the leader minus the follower where the two pass each
 * other within horizon s, both keeping their velocities. */
static vec2 closest_gap(vec2 offset, vec2 relative_velocity, double horizon) {
    double closing = offset.x * relative_velocity.x;
    closing += offset.y * relative_velocity.y;
    closing = -closing;
    double speed2 = relative_velocity.x * relative_velocity.x;
    speed2 += relative_velocity.y * relative_velocity.y;
    double time = speed2 > 1e-12 ? closing / speed2 : 0.0;
    time = minimum(maximum(time, 0.0), horizon);
    vec2 gap = {relative_velocity.x * time + offset.x, relative_velocity.y * time + offset.y};
    return gap;
}

/* perception.hidden for one follower (geometry/_capsules.blocked over the walls): whether a
 * wall stands on the line from the leader to the agent, its key (_kernels.ray_keys_local,
 * in the wall's frame as numpy's complex product rounds it) at most 1; not where either is
 * not at a finite place. */
static int hidden(as_geometry *geometry, vec2 leader, vec2 agent) {
    if (!(isfinite(leader.x) && isfinite(leader.y) && isfinite(agent.x) && isfinite(agent.y)))
        return 0;
    intptr_t k = shapes_along(geometry, 0, geometry->n_walls, leader, agent);
    vec2 ray = minus(agent, leader);
    for (intptr_t p = 0; p < k; p++) {
        shape wall = load_shape(&geometry->shapes, geometry->found[p]);
        vec2 start = to_frame(&wall, leader), line = ctimes(ray, wall.turn);
        if (ray_key(start, line, wall.length, wall.size) <= 1.0) return 1;
    }
    return 0;
}

/* sight_cone.EvadeSightCone.steer for one agent. params: length, half_angle (degrees),
 * max_prediction. */
vec2 evade_sight_cone(const agent *a, const as_agents *agents, as_sight_cones *set,
                      as_geometry *geometry, vec2 leader, const double *params) {
    intptr_t row = a->row, slot = set->leader[row];
    vec2 velocity = load(set->velocity, row);
    vec2 heading = leader_heading(agents, set, row, velocity, slot);
    heading = anticipated_heading(set, row, heading, velocity, a->dt);
    heading = leader_look(agents, slot, heading);
    vec2 ahead = turned_look(set, row, heading, a->dt);
    double reach = params[0], half_angle = params[1] * DEGREES;
    vec2 offset = {a->position.x - leader.x, a->position.y - leader.y};
    /* Followers dead on the axis split left and right, deterministically. */
    double fallback = a->slot % 2 == 0 ? 1.0 : -1.0;
    /* In view: in the cone now or where the look is turning to; hidden by walls between the
     * leader and the agent (perception.occlude, occluded=True). */
    if (in_sight(offset, heading, reach, half_angle) ||
        in_sight(offset, ahead, reach, half_angle)) {
        if (set->occluded && hidden(geometry, leader, a->position)) return ZERO;
        vec2 from_leader = {-offset.x, -offset.y};
        vec2 relative = {velocity.x - a->velocity.x, velocity.y - a->velocity.y};
        vec2 gap = closest_gap(from_leader, relative, params[2]);
        vec2 away = {-gap.x, -gap.y};
        return scaled(escape_direction(away, ahead, fallback), a->max_force);
    }
    if (in_sight(offset, ahead, reach + WAIT_MARGIN, half_angle + WAIT_WIDENING) &&
        !(set->occluded && hidden(geometry, leader, a->position))) {
        vec2 relative = {a->velocity.x - velocity.x, a->velocity.y - velocity.y};
        return stop_inward(a, relative, escape_direction(offset, ahead, fallback));
    }
    return ZERO;
}

/* Every sight-cone set: its leaders' velocities and slots (-1 or a row of the agents'
 * columns), its state there for the n agents, and the geometry where walls hide them. */
int check_sight_cones(const as_program *program, const as_agents *agents, intptr_t n) {
    if (program->n_sight_cones < 0) return AS_ERR_SIGHT_CONES;
    if (program->n_sight_cones > 0 && program->sight_cones == NULL) return AS_ERR_SIGHT_CONES;
    for (intptr_t s = 0; s < program->n_sight_cones && n > 0; s++) {
        const as_sight_cones *set = program->sight_cones + s;
        if (!set->velocity || !set->leader || !set->heading || !set->velocity_before ||
            !set->look_before)
            return AS_ERR_SIGHT_CONES;
        if (set->occluded && !program->geometry) return AS_ERR_GEOMETRY;
        for (intptr_t row = 0; row < n; row++)
            if (set->leader[row] < -1 || set->leader[row] >= agents->capacity)
                return AS_ERR_SIGHT_CONES;
    }
    return AS_OK;
}
