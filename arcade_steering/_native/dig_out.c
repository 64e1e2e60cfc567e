/* Digging buried circles out (solid/dig_out.py): guarded moves that go no deeper into a
 * shape the circle overlaps and touch no shape it does not, then pushes out. One circle at
 * a time (solid.c's as_keep_out calls it), against the shapes within its reach, ascending. */

#include "native.h"

/* dig_out.PUSHES, DIG_REACH */
#define PUSHES 4
#define DIG_REACH 16.0

/* A circle's candidates, its radius and how far from its start it may go. */
typedef struct {
    const as_shapes *shapes;
    const intptr_t *shape; /* the candidates' shapes, count of them */
    intptr_t count;
    double radius;
} digger;

/* dig_out._pushes for one circle at here: whether it overlaps a shape; if so, its move out
 * and the outward normal of its deepest shape. */
static int pushes(const digger *d, vec2 here, vec2 *move, vec2 *out);

/* dig_out._clear_both */
static vec2 clear_both(vec2 first, double depth, vec2 second, double other) {
    vec2 move = scaled(first, depth), alone = scaled(second, other), back = conjugate(first);
    double det = ctimes(back, second).y;
    int corner = fabs(det) > 0.05;
    /* The corner v: v . first = depth and v . second = other (Cramer's rule). */
    vec2 i = {0.0, 1.0};
    vec2 vertex = scaled(ctimes(i, minus(scaled(first, other), scaled(second, depth))),
                         1.0 / (corner ? det : 1.0));
    int clears = dot(move, second) >= other;
    int along = dot(alone, first) >= depth;
    return (clears || !(along || corner)) ? move : along ? alone : vertex;
}

static int pushes(const digger *d, vec2 here, vec2 *move, vec2 *out) {
    int pushed = 0;
    intptr_t first = -1, second = -1;
    double best = -INFINITY, next = -INFINITY;
    vec2 first_normal = ZERO, second_normal = ZERO;
    for (intptr_t p = 0; p < d->count; p++) {
        shape sh = load_shape(d->shapes, d->shape[p]);
        vec2 normal;
        double depth = overlap(&sh, to_frame(&sh, here), d->radius, &normal);
        double deep = depth + SKIN;
        pushed |= deep >= SKIN;
        if (!(depth > -TOUCH)) continue;
        /* The two deepest, the first of equals first (dig_out's stable sort). */
        if (deep > best) {
            second = first, next = best, second_normal = first_normal;
            first = p, best = deep, first_normal = normal;
        } else if (deep > next) {
            second = p, next = deep, second_normal = normal;
        }
    }
    if (!pushed) return 0;
    *out = first_normal;
    *move = scaled(first_normal, best);
    if (second >= 0) { /* pinched between two shapes */
        vec2 both = clear_both(first_normal, best, second_normal, next);
        double limit = d->radius + best;
        *move = scaled(both, minimum(1.0, limit / maximum(modulus(both), SKIN)));
    }
    return 1;
}

/* dig_out._guarded for one circle: from here straight towards goal, stopping a hair before
 * the first contact with a shape it does not overlap, and at once where the move goes deeper
 * into one it does. Returns where it stopped; met: the normal there (zero where it got to
 * goal); touched: whether that was a shape it does not overlap. */
static vec2 guarded(const digger *d, vec2 here, vec2 goal, vec2 *met, int *touched) {
    vec2 move = minus(goal, here);
    double best = INFINITY, span = modulus(move);
    intptr_t win = -1;
    int win_clear = 0;
    vec2 win_normal = ZERO;
    for (intptr_t p = 0; p < d->count; p++) {
        shape sh = load_shape(d->shapes, d->shape[p]);
        vec2 local = to_frame(&sh, here), outward;
        double depth = overlap(&sh, local, d->radius, &outward);
        int clear = depth < 0.0;
        double key = INFINITY;
        if (clear) {
            key = maximum(ray_key(local, ctimes(move, sh.turn), sh.length, sh.size + d->radius),
                          0.0);
        } else if (dot(move, outward) < -1e-12 * span &&
                   depth < sh.size + d->radius - ON_CORE) { /* on the core every way is out */
            key = 0.0;
        }
        if (key < best) {
            best = key, win = p, win_clear = clear, win_normal = outward;
        }
    }
    *met = ZERO;
    *touched = 0;
    if (win < 0) return goal;
    double back = maximum(best - SKIN / (span > 0.0 ? span : 1.0), 0.0);
    vec2 position = plus(here, scaled(move, back));
    *met = win_normal; /* a shape overlapped: its normal at the start */
    if (win_clear) {   /* a shape swept: the normal at the contact */
        shape sh = load_shape(d->shapes, d->shape[win]);
        vec2 contact;
        *met = contact_of(&sh, here, move, best, &contact);
        *touched = 1;
    }
    return position;
}

/* dig_out.dig_out for one circle: its motion with the push out from where it ends, then
 * slides and pushes, each a guarded move within room of start. */
static void dig(const digger *d, vec2 start, double room, vec2 *place, vec2 *speed) {
    vec2 motion = minus(*place, start), where = start, velocity = *speed, move, out;
    vec2 goal = plus(start, motion); /* _first_moves */
    if (pushes(d, goal, &move, &out)) {
        velocity = without_inward(velocity, out);
        goal = plus(goal, move);
    }
    int blocked = 0;
    for (int push = 0; push < PUSHES; push++) {
        vec2 here = where, away = minus(goal, start), met;
        goal = plus(start, scaled(away, minimum(1.0, room / maximum(modulus(away), SKIN))));
        int touched;
        where = guarded(d, here, goal, &met, &touched);
        velocity = without_inward(velocity, met);
        int stuck = modulus(minus(where, here)) <= SKIN;
        if (!(!stuck || (touched && !blocked)) || push == PUSHES - 1) break;
        vec2 rest = minus(goal, where), deepest = ZERO; /* _next_moves */
        if (pushes(d, where, &move, &out)) {
            velocity = without_inward(velocity, out);
            if (rest.x == 0.0 && rest.y == 0.0) rest = move;
            deepest = out;
        }
        rest = slide(without_inward(rest, met), deepest, &met);
        if (!(modulus(rest) > SKIN)) break;
        goal = plus(where, rest);
        blocked = stuck;
    }
    *place = where;
    *speed = velocity;
}

void dig_out(as_geometry *geometry, vec2 start, double depth, double radius, vec2 *place,
             vec2 *speed) {
    double room = modulus(minus(*place, start)); /* how far the centre may go */
    room += radius;
    room += depth;
    room += DIG_REACH;
    /* dig_out's broad phase: every shape within room of the start; it lists the one the
     * circle is buried in, so never none (numpy's move without candidates is not needed) */
    intptr_t k = shapes_around(geometry, start, room + radius);
    digger d = {&geometry->shapes, geometry->found, k, radius};
    dig(&d, start, room, place, speed);
}
