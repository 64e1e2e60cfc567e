/* FollowPath and StayOnPath (behaviors/paths.py, _follow.py) on the paths of path/pack.py's
 * PathPack. */

#include "native.h"

/* _follow.SLOW_FRACTION, _follow._END_EPS */
#define SLOW_FRACTION 0.1
#define END_EPS 1e-6

/* FollowPath.at_end, as the emitter numbers it */
enum { STOP, LOOP, REVERSE };

/* The rows of Path.segment_table */
enum { X, Y, DX, DY, AT, SPAN, RADIUS };

/* pack.PackPoint for one agent */
typedef struct {
    double distance;
    vec2 point, tangent;
    double radius, offset;
} pack_point;

static inline double cell(const as_paths *set, int field, intptr_t row) {
    return set->table[field * set->segments + row];
}

/* PathPack._row_of: the last segment whose key is at or before the distance (numpy's
 * searchsorted of key[1:], side "right": a NaN distance finds the last). */
static intptr_t row_of(const as_paths *set, intptr_t path, double distance) {
    double key = set->base[path] + distance;
    intptr_t lo = 1, hi = set->segments;
    while (lo < hi) {
        intptr_t mid = lo + (hi - lo) / 2;
        if (set->key[mid] > key)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo - 1;
}

/* PathPack._at_rows */
static pack_point at_row(const as_paths *set, intptr_t row, double along, double distance,
                         double offset) {
    pack_point p;
    p.distance = distance;
    p.tangent.x = cell(set, DX, row);
    p.tangent.y = cell(set, DY, row);
    p.point.x = cell(set, X, row) + p.tangent.x * along;
    p.point.y = cell(set, Y, row) + p.tangent.y * along;
    p.radius = cell(set, RADIUS, row);
    p.offset = offset;
    return p;
}

/* PathPack.wrap: into a loop's first lap (a degenerate loop of a pack without open paths
 * too, by 1 px), else clamped into the path. */
static double wrap(const as_paths *set, intptr_t path, double distance) {
    if (set->looped[path] || (set->closed[path] && !set->any_open)) {
        double period = set->period[path];
        return distance - period * floor(distance / period);
    }
    return minimum(maximum(distance, 0.0), set->length[path]);
}

/* PathPack.point_at */
static pack_point point_at(const as_paths *set, intptr_t path, double distance) {
    double d = wrap(set, path, distance);
    intptr_t row = row_of(set, path, d);
    double along = minimum(maximum(d - cell(set, AT, row), 0.0), cell(set, SPAN, row));
    return at_row(set, row, along, d, 0.0);
}

/* PathPack.project: the nearest point to `point` within [lo, hi] along the path, the
 * earliest of equals. */
static pack_point project(const as_paths *set, intptr_t path, vec2 point, double lo,
                          double hi) {
    double total = set->length[path];
    int closed = set->closed[path];
    if (closed) { /* the window starts in the first lap */
        double period = set->period[path];
        double lap = period * floor(lo / period);
        lo -= lap;
        hi -= lap;
    } else {
        lo = minimum(maximum(lo, 0.0), total);
        hi = minimum(maximum(hi, 0.0), total);
    }
    intptr_t first = row_of(set, path, lo), last = row_of(set, path, hi);
    intptr_t best = first;
    double best_along = 0.0, best_squared = 0.0;
    for (intptr_t row = first; row <= last || row == first; row++) {
        double dx = cell(set, DX, row), dy = cell(set, DY, row), at = cell(set, AT, row);
        double ox = point.x - cell(set, X, row);
        double oy = point.y - cell(set, Y, row);
        double along = ox * dx;
        along += oy * dy;
        along = maximum(along, lo - at);
        along = minimum(along, hi - at);
        along = minimum(along, cell(set, SPAN, row));
        along = maximum(along, 0.0);
        ox -= dx * along;
        oy -= dy * along;
        double squared = ox * ox + oy * oy;
        if (row == first || squared < best_squared) {
            best = row;
            best_along = along;
            best_squared = squared;
        }
    }
    double distance = cell(set, AT, best) + best_along;
    if (closed && distance >= total) distance -= total; /* the second lap wraps once */
    return at_row(set, best, best_along, distance, sqrt(best_squared));
}

/* _follow.follow_path for one agent; its progress, sense, homing and normal point are read
 * and written in place. params: prediction, look_ahead, min_look_ahead, slowing_radius,
 * tolerance. */
vec2 follow_path(const agent *a, as_paths *set, const double *params) {
    double prediction = params[0], look_ahead = params[1], min_look_ahead = params[2];
    double slowing_radius = params[3], tolerance = params[4];
    intptr_t i = a->row, path = set->which[i];
    double total = set->length[path];
    int open = !set->closed[path];
    /* Predict: where the agent will be, moving relative to the path. */
    double speed = length(a->velocity);
    vec2 relative = a->velocity;
    vec2 path_velocity = set->path_velocity ? load(set->path_velocity, i) : ZERO;
    if (set->path_velocity) relative = minus(a->velocity, path_velocity);
    vec2 predicted = plus(a->position, scaled(relative, prediction));
    double ahead = maximum(min_look_ahead, speed * look_ahead);
    /* _start_fresh: a new agent starts from its nearest point. */
    double progress = set->progress[i], sense = set->sense[i], homing = set->homing[i];
    if (isnan(progress)) {
        progress = project(set, path, a->position, 0.0, total).distance;
        homing = 0.0;
    }
    int forward = sense > 0.0;
    /* _project_ahead: a window from the progress on, the way the agent walks. */
    double reach = 1.5 * a->max_speed * (prediction + 2.0 * a->dt) + 1.0;
    if (!open) reach = minimum(reach, 0.5 * total);
    pack_point near = forward ? project(set, path, predicted, progress, progress + reach)
                              : project(set, path, predicted, progress - reach, progress);
    progress = near.distance;
    vec2 normal = near.point;
    /* _at_ends: turn round or head home at an open path's end. */
    double end = forward ? total : 0.0;
    int going_home = 0;
    if (set->any_open) {
        if (set->at_end != STOP && open && (end - progress) * sense <= END_EPS * (1.0 + total)) {
            if (set->at_end == REVERSE) {
                sense = -sense;
                end = total - end;
            } else {
                homing = 1.0;
            }
        }
        going_home = homing > 0.0;
        if (going_home) {
            double start = total - end;
            pack_point home = point_at(set, path, start);
            progress = start;
            normal = home.point;
            int arrived = length(minus(a->position, home.point)) <= maximum(home.radius, ahead);
            homing = arrived ? 0.0 : 1.0;
        }
    }
    /* _who_steers */
    double along = relative.x * near.tangent.x + relative.y * near.tangent.y;
    along *= sense;
    int slow = speed < SLOW_FRACTION * a->max_speed;
    int steering = near.offset > near.radius || along < 0.0 || slow || going_home || set->always;
    /* _braking_zone: Arrive at the end point itself would ask for less than full speed. */
    int braking = set->at_end == STOP && set->any_open && open;
    int near_end = 0;
    if (braking) {
        vec2 end_point = load(set->ends, 2 * path + forward);
        vec2 straight = arrive_velocity(a, end_point, slowing_radius, tolerance);
        near_end = length(straight) < a->max_speed * (1.0 - 1e-9);
    }
    /* Keep going: inside the tube only the speed is corrected, along the agent's heading. */
    vec2 desired = scaled(a->velocity, a->max_speed / (slow ? 1.0 : speed));
    if (steering || near_end) {
        /* Aim and seek: the target a look-ahead further along (the normal point going home). */
        pack_point aim = point_at(set, path, progress + sense * ahead);
        vec2 target = going_home ? normal : aim.point;
        vec2 to = minus(target, a->position);
        vec2 wanted = scaled(normalize(to, ZERO), a->max_speed);
        if (set->path_velocity) wanted = truncate(plus(wanted, path_velocity), a->max_speed);
        if (braking) { /* _brake_for_end: for the distance left along the path */
            double remaining = length(to) + fabs(end - aim.distance);
            vec2 goal = plus(a->position, scaled(normalize(to, ZERO), remaining));
            wanted = arrive_velocity(a, goal, slowing_radius, tolerance);
            steering = steering || length(wanted) < a->max_speed * (1.0 - 1e-9);
        }
        if (steering) desired = wanted;
    }
    set->progress[i] = progress;
    set->sense[i] = sense;
    set->homing[i] = homing;
    store(set->normal, i, normal);
    return velocity_force(desired, a->velocity, a->response_time);
}

/* paths.StayOnPath.steer for one agent: silent inside the tube, else seek the nearest point
 * of the centre line to where it will be in `prediction` s. */
vec2 stay_on_path(const agent *a, const as_paths *set, double prediction) {
    intptr_t path = set->which[a->row];
    vec2 predicted = plus(a->position, scaled(a->velocity, prediction));
    pack_point near = project(set, path, predicted, 0.0, set->length[path]);
    if (!(near.offset > near.radius)) return ZERO;
    vec2 desired = scaled(normalize(minus(near.point, a->position), ZERO), a->max_speed);
    return velocity_force(desired, a->velocity, a->response_time);
}

/* Every path set: its arrays there, at least one path and one segment, every agent's path
 * in range; the state there for the sets a FollowPath reads. */
int check_paths(const as_program *program, intptr_t n) {
    if (n == 0) return AS_OK;
    for (intptr_t s = 0; s < program->n_paths; s++) {
        const as_paths *set = program->paths + s;
        if (set->segments < 1 || set->paths < 1 || set->at_end < STOP || set->at_end > REVERSE)
            return AS_ERR_PATHS;
        if (!set->table || !set->key || !set->length || !set->base || !set->period ||
            !set->closed || !set->looped || !set->ends || !set->which)
            return AS_ERR_PATHS;
        for (intptr_t i = 0; i < n; i++)
            if (set->which[i] < 0 || set->which[i] >= set->paths) return AS_ERR_PATHS;
    }
    for (intptr_t i = 0; i < program->n_ops; i++) { /* operands checked by check_program */
        const int32_t *op = program->ops + 4 * i;
        if (op[0] != AS_FOLLOW_PATH) continue;
        const as_paths *set = program->paths + op[1];
        if (!set->progress || !set->sense || !set->homing || !set->normal) return AS_ERR_PATHS;
    }
    return AS_OK;
}
