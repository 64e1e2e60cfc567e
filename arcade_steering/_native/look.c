/* Where agents look (behaviors/look.py): Face, LookWhereYouAreGoing and Scan give no force
 * but a turn, an angular acceleration in degrees per s² (counter-clockwise).
 *
 * The numpy path takes its angles, sines and cosines from the C library as this file does
 * (look._angle_of), so the two agree to the bit where numpy's sin and cos are the C
 * library's; elsewhere to rounding. */

#include "native.h"

/* _util/validate.py: LIMIT, the cap of every limit */
#define LIMIT 1e12

vec2 rotation(double degrees) {
    double radians = degrees * (PI / 180.0); /* numpy.radians */
    vec2 r = {cos(radians), sin(radians)};   /* numpy.exp of 1j times it: exp(0) is 1 */
    return r;
}

vec2 quotient(vec2 a, vec2 b) {
    double br = fabs(b.x), bi = fabs(b.y);
    vec2 r;
    if (br >= bi) {
        if (br == 0.0 && bi == 0.0) { /* numpy's complex inf or NaN */
            r.x = a.x / br;
            r.y = a.y / bi;
            return r;
        }
        double ratio = b.y / b.x, scale = 1.0 / (b.x + b.y * ratio);
        r.x = (a.x + a.y * ratio) * scale;
        r.y = (a.y - a.x * ratio) * scale;
        return r;
    }
    double ratio = b.x / b.y, scale = 1.0 / (b.y + b.x * ratio);
    r.x = (a.x * ratio + a.y) * scale;
    r.y = (a.y * ratio - a.x) * scale;
    return r;
}

/* numpy.sign */
static double sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x == 0.0 ? 0.0 : x; }

/* look.turn_towards: the turn that brings the look onto direction (a zero one keeps it) */
static double turn_towards(const agent *a, vec2 direction, double tolerance) {
    vec2 q = quotient(direction, a->look);
    double gap = atan2(4.0 * q.y, 4.0 * q.x) * (180.0 / PI); /* degrees(look._angle_of(q)) */
    if (!((q.x != 0.0 || q.y != 0.0) && isfinite(gap) && fabs(gap) > tolerance)) gap = 0.0;
    double braking = sqrt(2.0 * minimum(a->max_angular_acceleration, LIMIT) * fabs(gap));
    double speed = minimum(minimum(fabs(gap) / a->response_time, a->max_turn_rate), braking);
    return (sign(gap) * speed - a->angular_velocity) / a->dt;
}

/* look.Face.turn */
double face(const agent *a, vec2 target, double tolerance) {
    return turn_towards(a, minus(target, a->position), tolerance);
}

/* look.LookWhereYouAreGoing.turn */
double look_where_you_are_going(const agent *a, double tolerance) {
    return turn_towards(a, a->heading, tolerance);
}

/* look.Scan.turn; params: half_angle, period, tolerance */
double scan(const agent *a, double *phase, const double *params) {
    double now = *phase + a->dt / params[1];
    now -= floor(now);
    *phase = now;
    vec2 offset = rotation(params[0] * sin(2.0 * PI * now));
    return turn_towards(a, ctimes(a->heading, offset), params[2]);
}

int turns_look(const as_program *program) {
    for (intptr_t i = 0; i < program->n_ops; i++) {
        int32_t op = program->ops[4 * i];
        if (op == AS_FACE || op == AS_LOOK_WHERE_YOU_ARE_GOING || op == AS_SCAN) return 1;
    }
    return 0;
}

/* Whether a program that turns has the agents' turn columns, and every scan set its phase
 * (the sets' count is check_program's) */
int check_looks(const as_program *program, const as_agents *agents, intptr_t n) {
    if (n == 0 || !turns_look(program)) return AS_OK;
    if (!agents->look || !agents->angular || !agents->angular_velocity || !agents->max_turn_rate
        || !agents->max_angular_acceleration)
        return AS_ERR_LOOKS;
    for (intptr_t s = 0; s < program->n_scans; s++)
        if (program->scans[s].phase == NULL) return AS_ERR_LOOKS;
    return AS_OK;
}
