/* The solid step's sweep (solid/keep_out.py): circles that start clear of every shape are
 * swept along their motion and slide along what they meet; the buried ones are left to
 * dig_out.c. One circle at a time, against its candidates in the broad phase's order. */

#include "native.h"

/* keep_out.SWEEPS */
#define SWEEPS 4

/* keep_out._sweep for one circle, its candidates lo..hi: place and speed in place. */
static void sweep(const as_shapes *shapes, const as_circles *circles, intptr_t lo,
                  intptr_t hi, vec2 source, double radius, vec2 *place, vec2 *speed) {
    vec2 start = source, move = minus(*place, source), before = ZERO;
    double reach = -(modulus(move) + SKIN); /* keep_out: candidates beyond the motion */
    intptr_t met[SWEEPS];                   /* the shapes met: each next sweep skips them */
    for (int round = 0; round < SWEEPS; round++) {
        double best = INFINITY;
        intptr_t win = -1;
        for (intptr_t p = lo; p < hi; p++) {
            intptr_t s = circles->shapes[p];
            int skip = 0;
            for (int k = 0; k < round; k++) skip |= met[k] == s;
            if (skip) continue;
            shape sh = load_shape(shapes, s);
            vec2 normal;
            if (overlap(&sh, to_frame(&sh, source), radius, &normal) < reach) continue;
            double key = ray_key(to_frame(&sh, start), ctimes(move, sh.turn), sh.length,
                                 sh.size + radius);
            if (key < best) { /* _kernels.first_min: the first of equals */
                best = key;
                win = p;
            }
        }
        if (win < 0) return; /* free: it ends at its target, place */
        shape sh = load_shape(shapes, circles->shapes[win]);
        vec2 contact;
        vec2 normal = contact_of(&sh, start, move, best, &contact);
        contact = plus(contact, scaled(normal, SKIN));
        const vec2 *prior = round ? &before : NULL;
        *speed = slide(*speed, normal, prior);
        vec2 rest = slide(minus(*place, contact), normal, prior);
        *place = contact;
        /* Still blocked after every sweep, or all the motion into the surfaces: done. */
        if (round == SWEEPS - 1 || !(modulus(rest) > SKIN)) return;
        *place = plus(contact, rest);
        met[round] = circles->shapes[win];
        start = contact;
        before = normal;
        move = minus(*place, start);
    }
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
        vec2 source = load(circles->start, i);
        double radius = agents->radius[slot];
        /* keep_out: a circle inside a shape or on its surface is dug out instead */
        double deepest_here = -1.0;
        for (intptr_t p = lo; p < hi; p++) {
            shape sh = load_shape(shapes, circles->shapes[p]);
            vec2 normal;
            double depth = overlap(&sh, to_frame(&sh, source), radius, &normal);
            if (depth >= 0.0) deepest_here = maximum(deepest_here, depth);
        }
        deepest[i] = deepest_here;
        if (deepest_here >= 0.0) {
            buried++;
        } else if (hi > lo) {
            vec2 place = load(agents->position, slot), speed = load(agents->velocity, slot);
            sweep(shapes, circles, lo, hi, source, radius, &place, &speed);
            store(agents->position, slot, place);
            store(agents->velocity, slot, speed);
        }
        lo = hi;
    }
    return buried;
}
