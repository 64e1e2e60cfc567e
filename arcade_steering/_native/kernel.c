/* The native step. Each stage mirrors a numpy kernel operation for operation, so the two
 * paths agree to rounding: the numpy name is given above each one. */

#include <math.h>
#include <stddef.h>

#include "kernel.h"

/* _util/vec.py: MIN_LENGTH, GOLDEN_ANGLE */
#define MIN_LENGTH 1e-12
#define PI 3.141592653589793 /* numpy.pi */
#define GOLDEN_ANGLE (PI * (3.0 - sqrt(5.0)))

typedef struct {
    double x, y;
} vec2;

static const vec2 ZERO = {0.0, 0.0};

static double length(vec2 v) { return sqrt(v.x * v.x + v.y * v.y); }

static vec2 scaled(vec2 v, double factor) {
    vec2 r = {v.x * factor, v.y * factor};
    return r;
}

static vec2 load(const double *rows, intptr_t row) {
    vec2 r = {rows[2 * row], rows[2 * row + 1]};
    return r;
}

static void store(double *rows, intptr_t row, vec2 v) {
    rows[2 * row] = v.x;
    rows[2 * row + 1] = v.y;
}

/* vec.normalize: unit vector, or fallback when shorter than MIN_LENGTH. */
static vec2 normalize(vec2 v, vec2 fallback) {
    double len = length(v);
    return len > MIN_LENGTH ? scaled(v, 1.0 / len) : fallback;
}

/* vec.truncate */
static vec2 truncate(vec2 v, double limit) {
    double len = length(v);
    return len > limit ? scaled(v, limit / len) : v;
}

/* vec.spread_directions */
static vec2 spread(intptr_t id) {
    double angle = (double)id * GOLDEN_ANGLE;
    vec2 r = {cos(angle), sin(angle)};
    return r;
}

/* numpy.maximum: NaN if either is (fmax would drop it). */
static double maximum(double a, double b) {
    if (isnan(a) || isnan(b)) return a + b;
    return a > b ? a : b;
}

/* masks.finite: NaN and inf replaced by zero, coordinate by coordinate. */
static vec2 finite(vec2 v) {
    vec2 r = {isfinite(v.x) ? v.x : 0.0, isfinite(v.y) ? v.y : 0.0};
    return r;
}

/* seek.velocity_force */
static vec2 velocity_force(vec2 desired, vec2 velocity, double response_time) {
    vec2 d = {desired.x - velocity.x, desired.y - velocity.y};
    return scaled(d, 1.0 / response_time);
}

/* What one agent's leaves read. */
typedef struct {
    intptr_t row;  /* position in the batch */
    intptr_t slot; /* row in the agents' columns */
    vec2 position, velocity, heading;
    double max_speed, max_force, mass, radius, response_time;
    const double *params;
} agent;

/* seek.Seek */
static vec2 seek(const agent *a, vec2 target) {
    vec2 offset = {target.x - a->position.x, target.y - a->position.y};
    vec2 desired = scaled(normalize(offset, ZERO), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}

/* seek.Flee, with seek.fallback_directions */
static vec2 flee(const agent *a, vec2 threat, double panic_distance) {
    vec2 away = {a->position.x - threat.x, a->position.y - threat.y};
    int moving = a->velocity.x != 0.0 || a->velocity.y != 0.0;
    vec2 fallback = moving ? a->heading : spread(a->slot);
    vec2 desired = scaled(normalize(away, fallback), a->max_speed);
    if (length(away) >= panic_distance) desired = ZERO;
    if (desired.x == 0.0 && desired.y == 0.0) return ZERO;
    return velocity_force(desired, a->velocity, a->response_time);
}

/* seek.arrive_velocity, then velocity_force */
static vec2 arrive(const agent *a, vec2 target, double slowing_radius, double tolerance) {
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
    vec2 desired = scaled(normalize(offset, ZERO), speed);
    return velocity_force(desired, a->velocity, a->response_time);
}

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
static vec2 separation(const agent *a, const as_agents *agents, const as_pairs *pairs,
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
static vec2 separation_among_all(const agent *a, const as_agents *agents,
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

/* numpy.minimum: NaN if either is. */
static double minimum(double a, double b) {
    if (isnan(a) || isnan(b)) return a + b;
    return a < b ? a : b;
}

/* _avoid_kernels.times */
static vec2 cmul(vec2 a, vec2 b) {
    vec2 r = {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
    return r;
}

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
static vec2 avoid_obstacles(const agent *a, as_obstacles *set, intptr_t *cursor,
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

/* The program is checked once, before any agent: every opcode known, every column, target
 * and pair set in range, the stack never under- or overflowing, one force left at the end. */
static int check_program(const as_program *program, intptr_t n) {
    intptr_t depth = 0;
    if (n > 0 && program->n_params > 0 && program->params == NULL) return AS_ERR_PROGRAM;
    if (program->n_targets > 0 && (program->targets == NULL || program->gone == NULL))
        return AS_ERR_PROGRAM;
    if (program->n_pairs < 0 || program->n_pairs > AS_MAX_STACK) return AS_ERR_PROGRAM;
    if (program->n_pairs > 0 && program->pairs == NULL) return AS_ERR_PROGRAM;
    if (program->n_obstacles < 0 || program->n_obstacles > AS_MAX_STACK) return AS_ERR_PROGRAM;
    if (program->n_obstacles > 0 && program->obstacles == NULL) return AS_ERR_PROGRAM;

    for (intptr_t i = 0; i < program->n_ops; i++) {
        const int32_t *op = program->ops + 4 * i;
        intptr_t columns = 0, first = op[2];
        switch (op[0]) {
            case AS_SEEK: case AS_FLEE: case AS_ARRIVE:
                if (op[1] < 0 || op[1] >= program->n_targets) return AS_ERR_PROGRAM;
                columns = op[0] == AS_SEEK ? 0 : op[0] == AS_FLEE ? 1 : 2;
                depth += 1;
                break;
            case AS_SEPARATION:
                if (op[1] < 0 || op[1] >= program->n_pairs) return AS_ERR_PROGRAM;
                columns = 1;
                depth += 1;
                break;
            case AS_AVOID_OBSTACLES:
                if (op[1] < 0 || op[1] >= program->n_obstacles) return AS_ERR_PROGRAM;
                columns = 2;
                depth += 1;
                break;
            case AS_WEIGHTED: case AS_PRIORITY:
                if (op[1] < 1 || op[1] > depth) return AS_ERR_STACK;
                columns = op[0] == AS_WEIGHTED ? op[1] : 1;
                depth -= op[1] - 1;
                break;
            default:
                return AS_ERR_PROGRAM;
        }
        if (columns && (first < 0 || first + columns > program->n_params)) return AS_ERR_PROGRAM;
        if (depth > AS_MAX_STACK) return AS_ERR_STACK;
    }
    return depth == 1 ? AS_OK : AS_ERR_STACK;
}

/* Every pair set: its arrays there, its pairs grouped by asking agent (0 <= query < n,
 * non-decreasing), every neighbour a slot of the columns. */
static int check_pairs(const as_program *program, const as_agents *agents, intptr_t n) {
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

/* Every obstacle set: its state there for the n agents, its candidates grouped by asking
 * agent (0 <= query < n, non-decreasing). */
static int check_obstacles(const as_program *program, intptr_t n) {
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

static int check_slots(const as_agents *agents, const intptr_t *slots, intptr_t n) {
    for (intptr_t i = 0; i < n; i++)
        if (slots[i] < 0 || slots[i] >= agents->capacity) return AS_ERR_SLOT;
    return AS_OK;
}

/* One agent's tree, interpreted: leaves push forces, blends pop their children's. */
static vec2 run_program(const as_program *program, const as_agents *agents, const agent *a,
                        intptr_t n, intptr_t *cursors, intptr_t *obstacle_cursors) {
    vec2 stack[AS_MAX_STACK];
    intptr_t top = 0;
    for (intptr_t i = 0; i < program->n_ops; i++) {
        const int32_t *op = program->ops + 4 * i;
        intptr_t target = op[1] * n + a->row;
        vec2 force = ZERO;
        switch (op[0]) {
            case AS_SEEK:
                force = seek(a, load(program->targets, target));
                break;
            case AS_FLEE:
                force = flee(a, load(program->targets, target), a->params[op[2]]);
                break;
            case AS_ARRIVE:
                force = arrive(a, load(program->targets, target), a->params[op[2]], a->params[op[2] + 1]);
                break;
            case AS_SEPARATION:
                if (program->pairs[op[1]].everyone)
                    force = separation_among_all(a, agents, program, a->params[op[2]]);
                else
                    force = separation(a, agents, program->pairs + op[1], cursors + op[1],
                                       a->params[op[2]]);
                break;
            case AS_AVOID_OBSTACLES:
                force = avoid_obstacles(a, program->obstacles + op[1], obstacle_cursors + op[1],
                                        a->params + op[2]);
                break;
            case AS_WEIGHTED: /* blend.WeightedBlend: weighted sum, truncated */
                top -= op[1];
                for (int32_t k = 0; k < op[1]; k++) {
                    vec2 child = scaled(stack[top + k], a->params[op[2] + k]);
                    force.x += child.x;
                    force.y += child.y;
                }
                force = truncate(force, a->max_force);
                break;
            case AS_PRIORITY: /* blend.PriorityBlend: the first child over the threshold */
                top -= op[1];
                for (int32_t k = 0; k < op[1]; k++) {
                    if (length(stack[top + k]) > a->params[op[2]]) {
                        force = stack[top + k];
                        break;
                    }
                }
                break;
        }
        if (op[0] <= AS_ARRIVE && program->gone[target]) force = ZERO; /* Targets.silence */
        stack[top++] = finite(force); /* context.evaluate */
    }
    return stack[0];
}

int as_steer(const as_agents *agents, const intptr_t *slots, intptr_t n,
             const as_program *program, double dt) {
    intptr_t cursors[AS_MAX_STACK] = {0}, obstacle_cursors[AS_MAX_STACK] = {0};
    int status = check_program(program, n);
    if (status == AS_OK) status = check_slots(agents, slots, n);
    if (status == AS_OK) status = check_pairs(program, agents, n);
    if (status == AS_OK) status = check_obstacles(program, n);
    if (status != AS_OK) return status;
    for (intptr_t s = 0; s < program->n_obstacles; s++) program->obstacles[s].threats = 0;
    for (intptr_t row = 0; row < n; row++) {
        intptr_t slot = slots[row];
        agent a;
        a.row = row;
        a.slot = slot;
        a.position = load(agents->position, slot);
        a.velocity = load(agents->velocity, slot);
        a.heading = load(agents->heading, slot);
        a.max_speed = agents->max_speed[slot];
        a.max_force = agents->max_force[slot];
        a.mass = agents->mass[slot];
        a.radius = agents->radius[slot];
        /* frame.BatchFrame: never react faster than the step */
        a.response_time = fmax(agents->response_time[slot], dt);
        a.params = program->n_params ? program->params + row * program->n_params : NULL;
        store(agents->force, slot, run_program(program, agents, &a, n, cursors, obstacle_cursors));
    }
    return AS_OK;
}

/* integrate.integrate, for agents kept out of nothing */
int as_integrate(const as_agents *agents, const intptr_t *rows, intptr_t n, double dt,
                 double heading_min_speed) {
    int status = check_slots(agents, rows, n);
    if (status != AS_OK) return status;
    for (intptr_t i = 0; i < n; i++) {
        intptr_t slot = rows[i];
        vec2 force = truncate(load(agents->force, slot), agents->max_force[slot]);
        store(agents->force, slot, force);
        vec2 velocity = load(agents->velocity, slot);
        vec2 change = scaled(force, dt / agents->mass[slot]);
        velocity.x += change.x;
        velocity.y += change.y;
        velocity = truncate(velocity, agents->max_speed[slot]);
        vec2 position = load(agents->position, slot);
        position.x += velocity.x * dt;
        position.y += velocity.y * dt;
        store(agents->position, slot, position);
        store(agents->velocity, slot, velocity);
        double speed = length(velocity);
        if (speed > heading_min_speed) {
            vec2 heading = scaled(velocity, 1.0 / speed);
            store(agents->heading, slot, heading);
            store(agents->look, slot, heading);
        }
    }
    return AS_OK;
}
