/* The program: checked once, then interpreted for every agent of the batch. */

#include "native.h"

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
    if (program->n_paths < 0 || program->n_paths > AS_MAX_STACK) return AS_ERR_PROGRAM;
    if (program->n_paths > 0 && program->paths == NULL) return AS_ERR_PROGRAM;
    if (program->n_leaders < 0 || program->n_leaders > AS_MAX_STACK) return AS_ERR_PROGRAM;
    if (program->n_leaders > 0 && program->leaders == NULL) return AS_ERR_PROGRAM;
    if (program->n_scans < 0 || program->n_scans > AS_MAX_STACK) return AS_ERR_PROGRAM;
    if (program->n_scans > 0 && program->scans == NULL) return AS_ERR_PROGRAM;

    for (intptr_t i = 0; i < program->n_ops; i++) {
        const int32_t *op = program->ops + 4 * i;
        intptr_t columns = 0, first = op[2];
        switch (op[0]) {
            case AS_SEEK: case AS_FLEE: case AS_ARRIVE:
                if (op[1] < 0 || op[1] >= program->n_targets) return AS_ERR_PROGRAM;
                columns = op[0] == AS_SEEK ? 0 : op[0] == AS_FLEE ? 1 : 2;
                depth += 1;
                break;
            case AS_SEPARATION: case AS_ALIGNMENT: case AS_COHESION:
                if (op[1] < 0 || op[1] >= program->n_pairs) return AS_ERR_PROGRAM;
                columns = 1;
                depth += 1;
                break;
            case AS_AVOID_OBSTACLES:
                if (op[1] < 0 || op[1] >= program->n_obstacles) return AS_ERR_PROGRAM;
                if (!program->geometry) return AS_ERR_GEOMETRY;
                columns = 4;
                depth += 1;
                break;
            case AS_EVADE_SIGHT_CONE:
                if (op[1] < 0 || op[1] >= program->n_targets) return AS_ERR_PROGRAM;
                if (op[3] < 0 || op[3] >= program->n_sight_cones) return AS_ERR_PROGRAM;
                columns = 3;
                depth += 1;
                break;
            case AS_AVOID_WALLS:
                if (!program->geometry) return AS_ERR_GEOMETRY;
                columns = 3;
                depth += 1;
                break;
            case AS_FOLLOW_PATH: case AS_STAY_ON_PATH:
                if (op[1] < 0 || op[1] >= program->n_paths) return AS_ERR_PROGRAM;
                columns = op[0] == AS_FOLLOW_PATH ? 5 : 1;
                depth += 1;
                break;
            case AS_FOLLOW_LEADER: case AS_OFFSET_PURSUIT:
            case AS_PURSUE: case AS_EVADE: case AS_MATCH_VELOCITY:
                if (op[1] < 0 || op[1] >= program->n_leaders) return AS_ERR_PROGRAM;
                columns = op[0] == AS_FOLLOW_LEADER ? 3
                          : op[0] == AS_OFFSET_PURSUIT ? 5
                          : op[0] == AS_PURSUE ? 1
                          : op[0] == AS_EVADE ? 2
                          : 0;
                depth += 1;
                break;
            case AS_FACE:
                if (op[1] < 0 || op[1] >= program->n_targets) return AS_ERR_PROGRAM;
                columns = 1;
                depth += 1;
                break;
            case AS_LOOK_WHERE_YOU_ARE_GOING:
                columns = 1;
                depth += 1;
                break;
            case AS_SCAN:
                if (op[1] < 0 || op[1] >= program->n_scans) return AS_ERR_PROGRAM;
                columns = 3;
                depth += 1;
                break;
            case AS_WANDER:
                if (op[1] < 0 || op[1] >= program->n_wanders) return AS_ERR_PROGRAM;
                columns = 2;
                depth += 1;
                break;
            case AS_FOLLOW_WAYPOINTS:
                if (op[1] < 0 || op[1] >= program->n_waypoints) return AS_ERR_PROGRAM;
                columns = 3;
                depth += 1;
                break;
            case AS_CONTAINMENT:
                if (op[1] < 0 || op[1] >= program->n_containments) return AS_ERR_PROGRAM;
                columns = 3;
                depth += 1;
                break;
            case AS_INTERPOSE: /* two leader sets */
                if (op[1] < 0 || op[1] >= program->n_leaders) return AS_ERR_PROGRAM;
                if (op[3] < 0 || op[3] >= program->n_leaders) return AS_ERR_PROGRAM;
                columns = 3;
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

int check_slots(const as_agents *agents, const intptr_t *slots, intptr_t n) {
    for (intptr_t i = 0; i < n; i++)
        if (slots[i] < 0 || slots[i] >= agents->capacity) return AS_ERR_SLOT;
    return AS_OK;
}

/* blend.WeightedBlend.turn: the weighted sum of the turns of the children that turn, into
 * *sum; whether one does (numpy's None when none does). */
static int weighted_turn(const double *turns, const int *turning, int32_t k,
                         const double *weights, double *sum) {
    int any = 0;
    for (int32_t c = 0; c < k; c++) {
        if (!turning[c]) continue;
        double weighted = weights[c] * turns[c];
        *sum = any ? *sum + weighted : weighted;
        any = 1;
    }
    return any;
}

/* blend.PriorityBlend.turn: the turn of the first child whose turn exceeds the threshold, into
 * *first (left 0 if none does); whether a child turns at all. */
static int priority_turn(const double *turns, const int *turning, int32_t k, double threshold,
                         double *first) {
    int any = 0;
    for (int32_t c = 0; c < k; c++) {
        if (!turning[c]) continue;
        any = 1;
        if (fabs(turns[c]) > threshold) {
            *first = turns[c];
            break;
        }
    }
    return any;
}

/* One agent's tree, interpreted: leaves push forces, blends pop their children's. The
 * turns go along beside the forces (a leaf that does not turn pushes none, as numpy's None);
 * the root's, if it has one, goes to *turn, and *turned says whether it has. */
static vec2 run_program(const as_program *program, const as_agents *agents, const agent *a,
                        intptr_t n, intptr_t *cursors, double *turn, int *turned) {
    vec2 stack[AS_MAX_STACK];
    double turns[AS_MAX_STACK];
    int turning[AS_MAX_STACK];
    intptr_t top = 0;
    for (intptr_t i = 0; i < program->n_ops; i++) {
        const int32_t *op = program->ops + 4 * i;
        intptr_t target = op[1] * n + a->row;
        vec2 force = ZERO;
        double angular = 0.0;
        int turns_here = 0;
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
                force = separation(a, agents, program, program->pairs + op[1], cursors + op[1],
                                   a->params[op[2]]);
                break;
            case AS_ALIGNMENT:
                force = alignment(a, agents, program, program->pairs + op[1], cursors + op[1],
                                  a->params[op[2]]);
                break;
            case AS_COHESION:
                force = cohesion(a, agents, program, program->pairs + op[1], cursors + op[1],
                                 a->params[op[2]]);
                break;
            case AS_AVOID_OBSTACLES:
                force = avoid_obstacles(a, program->geometry, program->obstacles + op[1],
                                        a->params + op[2]);
                break;
            case AS_EVADE_SIGHT_CONE: /* silent when its leader is gone (Targets.silence) */
                force = evade_sight_cone(a, agents, program->sight_cones + op[3],
                                         program->geometry, load(program->targets, target),
                                         a->params + op[2]);
                if (program->gone[target]) force = ZERO;
                break;
            case AS_AVOID_WALLS:
                force = avoid_walls(a, program->geometry, a->params + op[2]);
                break;
            case AS_FOLLOW_PATH:
                force = follow_path(a, program->paths + op[1], a->params + op[2]);
                break;
            case AS_STAY_ON_PATH:
                force = stay_on_path(a, program->paths + op[1], a->params[op[2]]);
                break;
            case AS_FOLLOW_LEADER:
                force = follow_leader(a, program->leaders + op[1], a->params + op[2]);
                break;
            case AS_OFFSET_PURSUIT:
                force = offset_pursuit(a, program->leaders + op[1], a->params + op[2]);
                break;
            case AS_PURSUE:
                force = pursue(a, program->leaders + op[1], a->params + op[2]);
                break;
            case AS_EVADE:
                force = evade(a, program->leaders + op[1], a->params + op[2]);
                break;
            case AS_MATCH_VELOCITY:
                force = match_velocity(a, program->leaders + op[1]);
                break;
            case AS_FACE: /* the leaves that turn the look: the force stays ZERO */
                angular = face(a, load(program->targets, target), a->params[op[2]]);
                turns_here = 1;
                break;
            case AS_LOOK_WHERE_YOU_ARE_GOING:
                angular = look_where_you_are_going(a, a->params[op[2]]);
                turns_here = 1;
                break;
            case AS_SCAN:
                angular = scan(a, program->scans[op[1]].phase + a->row, a->params + op[2]);
                turns_here = 1;
                break;
            case AS_WANDER:
                force = wander(a, program->wanders + op[1], a->params + op[2]);
                break;
            case AS_FOLLOW_WAYPOINTS:
                force = follow_waypoints(a, program->waypoints + op[1], a->params + op[2]);
                break;
            case AS_CONTAINMENT:
                force = containment(a, program->containments + op[1], a->params + op[2]);
                break;
            case AS_INTERPOSE:
                force = interpose(a, program->leaders + op[1], program->leaders + op[3],
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
                turns_here = weighted_turn(turns + top, turning + top, op[1],
                                           a->params + op[2], &angular);
                break;
            case AS_PRIORITY: /* blend.PriorityBlend: the first child over the threshold */
                top -= op[1];
                for (int32_t k = 0; k < op[1]; k++) {
                    if (length(stack[top + k]) > a->params[op[2]]) {
                        force = stack[top + k];
                        break;
                    }
                }
                turns_here = priority_turn(turns + top, turning + top, op[1], a->params[op[2]],
                                           &angular);
                break;
        }
        if (op[0] <= AS_ARRIVE && program->gone[target]) force = ZERO; /* Targets.silence */
        turning[top] = turns_here;
        turns[top] = isfinite(angular) ? angular : 0.0; /* context.evaluate_turn */
        stack[top++] = finite(force);                   /* context.evaluate */
    }
    *turned = turning[0];
    *turn = turns[0];
    return stack[0];
}

int as_steer(const as_agents *agents, const intptr_t *slots, intptr_t n,
             const as_program *program, double dt) {
    intptr_t cursors[AS_MAX_STACK] = {0};
    int status = check_program(program, n);
    if (status == AS_OK) status = check_slots(agents, slots, n);
    if (status == AS_OK) status = check_pairs(program, agents, n);
    if (status == AS_OK) status = check_obstacles(program, n);
    if (status == AS_OK) status = check_sight_cones(program, agents, n);
    if (status == AS_OK && program->geometry) status = check_geometry_sizes(program->geometry);
    if (status == AS_OK) status = check_paths(program, n);
    if (status == AS_OK) status = check_leaders(program, n);
    if (status == AS_OK) status = check_looks(program, agents, n);
    if (status == AS_OK) status = check_wanders(program, n);
    if (status == AS_OK) status = check_waypoints(program, n);
    if (status == AS_OK) status = check_containments(program, n);
    if (status != AS_OK) return status;
    int looks = turns_look(program);
    for (intptr_t s = 0; s < program->n_obstacles; s++) program->obstacles[s].threats = 0;
    neighbor_grid *grid = build_neighbor_grid(agents, program, n);
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
        a.dt = dt;
        a.params = program->n_params ? program->params + row * program->n_params : NULL;
        a.grid = grid;
        a.look = looks ? load(agents->look, slot) : ZERO;
        a.angular_velocity = looks ? agents->angular_velocity[slot] : 0.0;
        a.max_turn_rate = looks ? agents->max_turn_rate[slot] : 0.0;
        a.max_angular_acceleration = looks ? agents->max_angular_acceleration[slot] : 0.0;
        double turn;
        int turned;
        store(agents->force, slot, run_program(program, agents, &a, n, cursors, &turn, &turned));
        if (turned) agents->angular[slot] = turn; /* integrate.step: the batch's turns */
    }
    free_neighbor_grid(grid);
    return AS_OK;
}
