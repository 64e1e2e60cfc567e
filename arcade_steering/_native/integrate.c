/* The integrator (component/integrate.py). */

#include "native.h"

/* integrate.integrate, up to the solid step: truncate the force, accelerate, move. */
int as_move(const as_agents *agents, const intptr_t *rows, intptr_t n, double dt,
            double *start) {
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
        if (start != NULL) store(start, i, position);
        position.x += velocity.x * dt;
        position.y += velocity.y * dt;
        store(agents->position, slot, position);
        store(agents->velocity, slot, velocity);
    }
    return AS_OK;
}

/* integrate.integrate, after the solid step: headings along the velocities. */
int as_turn(const as_agents *agents, const intptr_t *rows, intptr_t n,
            double heading_min_speed) {
    int status = check_slots(agents, rows, n);
    if (status != AS_OK) return status;
    for (intptr_t i = 0; i < n; i++) {
        intptr_t slot = rows[i];
        vec2 velocity = load(agents->velocity, slot);
        double speed = length(velocity);
        if (speed > heading_min_speed) {
            vec2 heading = scaled(velocity, 1.0 / speed);
            store(agents->heading, slot, heading);
            store(agents->look, slot, heading);
        }
    }
    return AS_OK;
}

/* integrate.integrate, for agents kept out of nothing */
int as_integrate(const as_agents *agents, const intptr_t *rows, intptr_t n, double dt,
                 double heading_min_speed) {
    int status = as_move(agents, rows, n, dt, NULL);
    return status == AS_OK ? as_turn(agents, rows, n, heading_min_speed) : status;
}

/* numpy.clip with array bounds: NaN stays NaN */
static double clip(double x, double low, double high) {
    x = isnan(x) ? x : x > low ? x : low;
    return isnan(x) ? x : x < high ? x : high;
}

/* integrate.turn_looks */
int as_turn_looks(const as_agents *agents, const intptr_t *slots, intptr_t k, double dt,
                  const double *saved) {
    int status = check_slots(agents, slots, k);
    if (status != AS_OK) return status;
    if (k > 0 && (!saved || !agents->look || !agents->angular || !agents->angular_velocity
                  || !agents->max_turn_rate || !agents->max_angular_acceleration))
        return AS_ERR_LOOKS;
    for (intptr_t i = 0; i < k; i++) {
        intptr_t slot = slots[i];
        double limit = agents->max_angular_acceleration[slot];
        double rate = agents->max_turn_rate[slot];
        double alpha = clip(agents->angular[slot], -limit, limit);
        double omega = clip(agents->angular_velocity[slot] + alpha * dt, -rate, rate);
        agents->angular_velocity[slot] = omega;
        vec2 turned = ctimes(load(saved, i), rotation(omega * dt));
        vec2 length = {modulus(turned), 0.0}; /* numpy divides by it as a complex number */
        store(agents->look, slot, quotient(turned, length));
    }
    return AS_OK;
}
