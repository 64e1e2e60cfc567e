/* The solid step's sweep (solid/keep_out.py): circles that start clear of every shape are
 * swept along their motion and slide along what they meet; the buried ones are left to
 * dig_out.c. One circle at a time, against its candidates in the broad phase's order. */

#include "native.h"

/* keep_out.SWEEPS */
#define SWEEPS 4

/* keep_out for one circle, its candidates lo..hi: swept and slid as keep_out._sweep slides
 * it (place and speed in place), unless it starts inside a shape or on its surface: then
 * its depth is returned (else -1) and it is left to dig_out. */
static double sweep(const as_shapes *shapes, const as_circles *circles, intptr_t lo,
                    intptr_t hi, vec2 source, double radius, vec2 *place, vec2 *speed) {
    vec2 start = source, move = minus(*place, source), before = ZERO;
    double reach = -(modulus(move) + SKIN); /* keep_out: candidates beyond the motion */
    double deepest = -1.0;
    intptr_t met[SWEEPS]; /* the shapes met: each next sweep skips them */
    for (int round = 0; round < SWEEPS; round++) {
        double best = INFINITY;
        intptr_t win = -1;
        for (intptr_t p = lo; p < hi; p++) {
            intptr_t s = circles->shapes[p];
            int skip = 0;
            for (int k = 0; k < round; k++) skip |= met[k] == s;
            if (skip) continue;
            shape sh = load_shape(shapes, s);
            vec2 local = to_frame(&sh, source);
            double depth = depth_of(&sh, local, radius);
            if (depth >= 0.0) deepest = maximum(deepest, depth);
            if (deepest >= 0.0 || depth < reach) continue;
            if (round) local = to_frame(&sh, start);
            double key = ray_key(local, ctimes(move, sh.turn), sh.length, sh.size + radius);
            if (key < best) { /* _kernels.first_min: the first of equals */
                best = key;
                win = p;
            }
        }
        if (deepest >= 0.0) return deepest;
        if (win < 0) return -1.0; /* free: it ends at its target, place */
        shape sh = load_shape(shapes, circles->shapes[win]);
        vec2 contact;
        vec2 normal = contact_of(&sh, start, move, best, &contact);
        contact = plus(contact, scaled(normal, SKIN));
        const vec2 *prior = round ? &before : NULL;
        *speed = slide(*speed, normal, prior);
        vec2 rest = slide(minus(*place, contact), normal, prior);
        *place = contact;
        /* Still blocked after every sweep, or all the motion into the surfaces: done. */
        if (round == SWEEPS - 1 || !(modulus(rest) > SKIN)) return -1.0;
        *place = plus(contact, rest);
        met[round] = circles->shapes[win];
        start = contact;
        before = normal;
        move = minus(*place, start);
    }
    return -1.0;
}

intptr_t as_keep_out(const as_agents *agents, const as_shapes *shapes,
                     const as_circles *circles, double *deepest) {
    int status = check_circles(agents, shapes, circles);
    if (status != AS_OK) return status;
    if (circles->k > 0 && deepest == NULL) return AS_ERR_SHAPES;
    intptr_t buried = 0, lo = 0;
    for (intptr_t i = 0; i < circles->k; i++) {
        intptr_t hi = lo, slot = circles->slots[i];
        while (hi < circles->count && circles->rows[hi] == i) hi++;
        vec2 place = load(agents->position, slot), speed = load(agents->velocity, slot);
        deepest[i] = sweep(shapes, circles, lo, hi, load(circles->start, i),
                           agents->radius[slot], &place, &speed);
        if (deepest[i] >= 0.0) {
            buried++;
        } else {
            store(agents->position, slot, place);
            store(agents->velocity, slot, speed);
        }
        lo = hi;
    }
    return buried;
}
