/* keys: the scene schema's table of keys (keys.h says who reads it).
 *
 * Order within a section is the order of the loader's "expected ..." lists and
 * of doc/scenes.md.  A default written as YAML text is checked by
 * test_scene_keys to load the same model as the key left out; change one
 * here only together with the loader's (sc_options_default, scene.c). */
#include "scene/keys.h"

#include <string.h>

static const sc_scene_key keys[] = {
    /* ---- top level ---- */
    {"", "simc", "integer", "", "required", "", "scene format version; must be 1"},
    {"", "name", "name", "", "(the file's base name)", "", "the run's name, recorded in the output"},
    {"", "gravity", "[x, y, z]", "m/s^2", "[0, 0, -9.81]", "", "gravity in the world frame"},
    {"", "fluid", "map", "", "(no fluid)", "",
     "the medium the bodies move in: drag and viscous forces on each body's equivalent inertia box"},
    {"", "time", "map", "", "required", "", "step and duration"},
    {"", "integrator", "map", "", "(its keys' defaults)", "", "the theta-method scheme"},
    {"", "contact", "map", "", "(its keys' defaults)", "", "the contact solver and each contact's law"},
    {"", "materials", "map of name -> map", "", "(none)", "",
     "named sets of contact parameters a shape refers to"},
    {"", "bodies", "list of maps", "", "(none)", "", "the moving bodies, each with its joint"},
    {"", "static", "list of shapes", "", "(none)", "", "shapes fixed to the world"},
    {"", "exclude", "list of [body, body]", "", "(none)", "",
     "pairs of bodies (world: the static shapes) whose shapes never touch, whatever their masks"},
    {"", "springs", "list of maps", "", "(none)", "", "joint and point-to-point spring-dampers"},
    {"", "constraints", "list of maps", "", "(none)", "",
     "equality constraints: ball joints between bodies (closed loops), welds, joint couplings, "
     "distances (doc/constraints.md)"},
    {"", "actuators", "list of maps", "", "(none)", "",
     "motors and servos on joint dofs, each driven by a command or a constant"},
    {"", "commands", "list of maps", "", "(none)", "",
     "the time series actuators follow: inline tables, constants, CSV files, HDF5 datasets"},
    {"", "output", "map", "", "(its keys' defaults)", "", "what the output file records"},
    {"", "models", "list of maps", "", "(none)", "",
     "MJCF and URDF models placed beside the scene's bodies (doc/import.md)"},

    /* ---- fluid ---- */
    {"fluid", "density", "number", "kg/m^3", "0", ">= 0",
     "the medium's density: quadratic drag on each body (MuJoCo's inertia-box model; doc/step.md)"},
    {"fluid", "viscosity", "number", "Pa s", "0", ">= 0",
     "the medium's viscosity: Stokes force and torque on each body's equivalent sphere"},
    {"fluid", "wind", "[x, y, z]", "m/s", "[0, 0, 0]", "",
     "the medium's velocity in the world frame; no force without density or viscosity"},

    /* ---- time ---- */
    {"time", "step", "number", "s", "required", "> 0", "the time step"},
    {"time", "duration", "number", "s", "required", "> 0", "simulated time; at least time.step"},

    /* ---- integrator ---- */
    {"integrator", "scheme", "explicit_euler | symplectic_euler | implicit_euler | midpoint | theta",
     "", "midpoint", "", "the theta-method variant; theta gives the three thetas explicitly"},
    {"integrator", "theta", "map", "", "(required with scheme: theta)", "",
     "theta_q, theta_v, theta_vq; only with scheme: theta"},
    {"integrator", "newton", "map", "", "(its keys' defaults)", "", "the free-motion Newton iteration"},
    {"integrator", "relinearize", "integer", "", "2", ">= 0",
     "re-linearizations of the momentum balance about the contact solution per step; 0 is the "
     "published two-stage scheme"},
    {"integrator.theta", "q", "number", "-", "required", "[0, 1]",
     "where positions are evaluated in the step (theta_q)"},
    {"integrator.theta", "v", "number", "-", "required", "[0, 1]",
     "where velocities are evaluated in the forces (theta_v)"},
    {"integrator.theta", "vq", "number", "-", "required", "[0, 1]",
     "which velocity advances the positions (theta_vq)"},
    {"integrator.newton", "tolerance", "number", "-", "1e-10", "> 0",
     "relative residual at which the free-motion iteration (and re-linearization) stops"},
    {"integrator.newton", "max_iterations", "integer", "", "30", ">= 1",
     "iteration cap of the free-motion stage"},

    /* ---- contact ---- */
    {"contact", "solver", "newton | lcp", "", "newton", "",
     "the convex Newton solver or the LCP baseline (Lemke, polyhedral cone)"},
    {"contact", "tolerance", "number", "-", "1e-6", "> 0",
     "relative momentum residual at which each island's Newton solve stops"},
    {"contact", "max_iterations", "integer", "", "100", ">= 1", "Newton iteration cap per island"},
    {"contact", "cg_iterations", "integer", "", "5", ">= 0",
     "conjugate-gradient iterations a Newton direction may take from an earlier factorization "
     "of the Hessian before it is factored anew; 0 factors it at every iteration; changes the "
     "path, not the answer"},
    {"contact", "on_failure", "abort | warn", "", "abort", "",
     "what a contact solve that does not converge does to the run"},
    {"contact", "lcp", "map", "", "(its keys' defaults)", "", "the LCP baseline's options"},
    {"contact", "sigma", "number", "-", "1e-3", "> 0", "friction regularization of the convex models"},
    {"contact", "near_rigid_beta", "number", "-", "1", ">= 0",
     "near-rigid threshold: a contact stiffer than the step resolves gets this beta"},
    {"contact", "margin", "number", "m", "1e-3", ">= 0", "contact detection margin"},
    {"contact", "max_contacts", "integer", "", "0", ">= 0",
     "capacity of the contact buffer; 0 sizes it from the geometry"},
    {"contact", "defaults", "map", "", "(its keys' defaults)", "",
     "contact parameters of shapes that set none (nor their material)"},
    {"contact", "slip_curvature", "number", "-", "(the model's: 0.2 lagged, 0.1 sap and similar)",
     ">= 0",
     "extra Newton-Hessian curvature along the slip of sliding contacts far from convergence; "
     "changes the path, not the answer"},
    {"contact", "model", "sap | similar | lagged", "", "lagged", "",
     "the convex contact model of the newton solver"},
    {"contact", "threads", "integer in [1, 256] | auto", "", "1", "",
     "threads solving the newton solver's islands (auto: one per online CPU); results do not "
     "depend on it"},
    {"contact", "theta", "auto | scheme | number in (0, 1]", "", "auto", "",
     "the theta of each contact's law: auto writes contacts the step does not resolve at 1 and the "
     "others at theta_vq; scheme writes all at theta_vq"},
    {"contact", "near_rigid_depth", "number", "-", "1e-3", ">= 0",
     "depth a near-rigid contact may settle to under its load, as a fraction of the smaller "
     "shape's bounding radius; 0 keeps beta fixed"},
    {"contact", "near_rigid_beta_min", "number", "-", "0.01", "> 0",
     "the lowest beta depth control may choose"},
    {"contact", "passes", "integer", "", "4", ">= 0",
     "re-solves of an island per step that update new contacts' lagged friction bound and "
     "beta from its own impulses; 0 is the published models"},
    {"contact", "penetration_warning", "number", "-", "0.05", "> 0",
     "a contact deeper than this fraction of the smaller shape's bounding radius is reported"},
    {"contact", "friction_mix", "harmonic/max", "", "harmonic", "",
     "a pair's friction from its two shapes' coefficients: their harmonic mean, or the larger "
     "(MuJoCo's rule; translated MJCF models use it)"},
    {"contact", "speculative", "true/false", "", "true", "",
     "each shape's detection margin grows by the distance its bounding sphere can travel in a "
     "step"},
    {"contact", "midstep_jacobian", "true/false", "", "true", "",
     "contacts detected at the step start are placed at the predicted mid configuration for "
     "their Jacobian (false: at the start)"},
    {"contact", "stiction_anchor", "number", "-", "0.5", "[0, 1]",
     "fraction of a sticking contact's slip since it began to stick that its friction undoes "
     "in a step (newton solver); 0: the regularized law alone, which creeps"},
    {"contact.lcp", "directions", "integer", "", "8", ">= 4, even", "edges of the polyhedral cone"},
    {"contact.lcp", "warm_start", "true/false", "", "true", "",
     "each island's LCP first tries the basis of the previous step's solution"},
    {"contact.lcp", "max_memory", "number", "MiB", "512", "> 0",
     "bound of the dense LCP workspace of one island"},
    {"contact.defaults", "stiffness", "number | rigid", "N/m", "1e6", "> 0", "contact stiffness k"},
    {"contact.defaults", "dissipation_time", "number", "s", "0.01", ">= 0",
     "Kelvin-Voigt dissipation time of the sap model and the LCP's normal law"},
    {"contact.defaults", "friction", "number", "-", "0.5", ">= 0", "Coulomb friction coefficient"},
    {"contact.defaults", "dissipation", "number", "s/m", "20", ">= 0",
     "Hunt-Crossley dissipation of the similar and lagged models"},

    /* ---- materials ---- */
    {"materials.<name>", "stiffness", "number | rigid", "N/m", "(contact.defaults.stiffness)", "> 0",
     "contact stiffness k of shapes of this material"},
    {"materials.<name>", "dissipation_time", "number", "s", "(contact.defaults.dissipation_time)",
     ">= 0", "Kelvin-Voigt dissipation time"},
    {"materials.<name>", "friction", "number", "-", "(contact.defaults.friction)", ">= 0",
     "Coulomb friction coefficient"},
    {"materials.<name>", "dissipation", "number", "s/m", "(contact.defaults.dissipation)", ">= 0",
     "Hunt-Crossley dissipation"},

    /* ---- bodies ---- */
    {"bodies[]", "name", "name", "", "required", "", "unique; world is reserved"},
    {"bodies[]", "parent", "name", "", "world", "", "the body the joint attaches to (any order in the file)"},
    {"bodies[]", "joint", "map", "", "required", "", "the joint to the parent"},
    {"bodies[]", "mass", "number", "kg", "(required unless the joint is fixed)", ">= 0",
     "the body's mass; 0 only for a body with children (a massless link between joints)"},
    {"bodies[]", "com", "[x, y, z]", "m", "[0, 0, 0]", "",
     "centre of mass in the body frame (not with inertia: solid)"},
    {"bodies[]", "inertia", "map | solid", "", "(required unless the joint is fixed)", "",
     "rotational inertia about the centre of mass in the body frame; solid: a uniform density "
     "over the body's shapes (sets com too)"},
    {"bodies[]", "initial", "map", "", "(the joint's zero)", "", "initial joint coordinates and velocities"},
    {"bodies[]", "geometry", "list of shapes", "", "(none)", "", "contact shapes fixed to the body"},
    {"bodies[].joint", "type", "fixed | revolute | prismatic | planar | ball | free", "", "required",
     "", "the joint's kind"},
    {"bodies[].joint", "origin", "<pose>", "", "(the parent's frame)", "",
     "the joint frame in the parent body's frame; the body frame is it at q = 0"},
    {"bodies[].joint", "axis", "[x, y, z]", "-", "[0, 0, 1]", "",
     "revolute and prismatic only: the axis in the joint frame (normalized; non-zero)"},
    {"bodies[].joint", "limits", "[lower, upper]", "m or rad", "(none)", "",
     "revolute and prismatic only: the joint coordinate's bounds, null for an open side; lower < "
     "upper"},
    {"bodies[].joint", "limit_stiffness", "number | rigid", "N/m or N m/rad", "rigid", "> 0",
     "stiffness of the limits (only with limits)"},
    {"bodies[].joint", "limit_dissipation", "number", "s", "0", ">= 0",
     "dissipation time scale of the limits (only with limits)"},
    {"bodies[].joint", "damping", "number | list of nv numbers", "N s/m or N m s/rad", "0", ">= 0",
     "viscous damping of each velocity (one number: all of them); not on a fixed joint"},
    {"bodies[].joint", "armature", "number | list of nv numbers", "kg or kg m^2", "0", ">= 0",
     "inertia added to each velocity's diagonal of the mass matrix (rotor inertia)"},
    {"bodies[].joint", "friction", "number | list of nv numbers", "N or N m", "0", ">= 0",
     "dry (Coulomb) friction of each velocity: the largest force it resists with"},
    {"bodies[].inertia", "ixx", "number", "kg m^2", "required", "", "the inertia tensor's entries"},
    {"bodies[].inertia", "iyy", "number", "kg m^2", "required", "", ""},
    {"bodies[].inertia", "izz", "number", "kg m^2", "required", "", ""},
    {"bodies[].inertia", "ixy", "number", "kg m^2", "0", "",
     "products of inertia; the tensor must be positive definite and obey the triangle inequality"},
    {"bodies[].inertia", "ixz", "number", "kg m^2", "0", "", ""},
    {"bodies[].inertia", "iyz", "number", "kg m^2", "0", "", ""},
    {"bodies[].initial", "q", "list of nq numbers", "m, rad", "(the joint's zero)", "",
     "revolute [angle]; prismatic [d]; planar [x, y, angle]; ball [qw, qx, qy, qz]; free [x, y, z, "
     "qw, qx, qy, qz] (quaternions are normalized)"},
    {"bodies[].initial", "v", "list of nv numbers", "m/s, rad/s", "(zero)", "",
     "ball: angular velocity; free: velocity of the body origin then angular velocity, both in "
     "the joint frame"},

    /* ---- poses ---- */
    {"<pose>", "position", "[x, y, z]", "m", "[0, 0, 0]", "", "translation"},
    {"<pose>", "rpy", "[roll, pitch, yaw]", "rad", "[0, 0, 0]", "",
     "rotation R = Rz(yaw) Ry(pitch) Rx(roll)"},
    {"<pose>", "quat", "[qw, qx, qy, qz]", "-", "(rpy)", "",
     "the rotation as a quaternion (normalized; not with rpy)"},

    /* ---- shapes ---- */
    {"<shape>", "shape", "sphere | capsule | box | cylinder | ellipsoid | mesh | plane", "", "required", "",
     "the shape's type (plane only in static)"},
    {"<shape>", "pose", "<pose>", "", "(the body's frame)", "",
     "the shape's frame in its body (or the world); not for planes"},
    {"<shape>", "material", "name", "", "(none)", "", "a key of materials"},
    {"<shape>", "stiffness", "number | rigid", "N/m", "(its material's, else contact.defaults')",
     "> 0", "contact stiffness k"},
    {"<shape>", "dissipation_time", "number", "s", "(its material's, else contact.defaults')",
     ">= 0", "Kelvin-Voigt dissipation time"},
    {"<shape>", "friction", "number", "-", "(its material's, else contact.defaults')", ">= 0",
     "Coulomb friction coefficient"},
    {"<shape>", "dissipation", "number", "s/m", "(its material's, else contact.defaults')", ">= 0",
     "Hunt-Crossley dissipation"},
    {"<shape>", "contype", "integer", "", "1", ">= 0",
     "contact type bit mask (at most 4294967295): two shapes touch only when the contype of one "
     "and the conaffinity of the other share a bit, either way round (MuJoCo's rule)"},
    {"<shape>", "conaffinity", "integer", "", "1", ">= 0",
     "contact affinity bit mask (at most 4294967295); 0 with contype 0: the shape touches nothing"},
    {"<shape> sphere", "radius", "number", "m", "required", "> 0", ""},
    {"<shape> capsule", "radius", "number", "m", "required", "> 0", ""},
    {"<shape> capsule", "length", "number", "m", "required", ">= 0",
     "length of the axis segment (along the shape's z)"},
    {"<shape> cylinder", "radius", "number", "m", "required", "> 0", ""},
    {"<shape> cylinder", "length", "number", "m", "required", "> 0", "height (along the shape's z)"},
    {"<shape> box", "size", "[lx, ly, lz]", "m", "required", "", "full edge lengths, each > 0"},
    {"<shape> ellipsoid", "radii", "[a, b, c]", "m", "required", "",
     "semi-axes along the shape's x, y, z, each > 0"},
    {"<shape> mesh", "file", "path", "", "required", "",
     "an OBJ or STL file, or another format assimp reads (Collada .dae), relative to the scene's directory; its convex hull collides"},
    {"<shape> mesh", "scale", "[sx, sy, sz] | number", "-", "[1, 1, 1]", "",
     "multiplies the file's coordinates, each > 0 (e.g. 0.001 for millimetres)"},
    {"<shape> plane", "normal", "[x, y, z]", "-", "[0, 0, 1]", "",
     "outward normal (normalized; non-zero)"},
    {"<shape> plane", "offset", "number", "m", "0", "",
     "the plane is the points p with normal . p = offset; the solid lies below"},

    /* ---- springs ---- */
    {"springs[] joint", "type", "joint", "", "required", "", ""},
    {"springs[] joint", "joint", "name", "", "required", "",
     "a body whose joint is revolute, prismatic or planar"},
    {"springs[] joint", "dof", "integer", "", "0", ">= 0", "which of the joint's velocities"},
    {"springs[] joint", "stiffness", "number", "N/m or N m/rad", "required", ">= 0", ""},
    {"springs[] joint", "damping", "number", "N s/m or N m s/rad", "0", ">= 0", ""},
    {"springs[] joint", "rest", "number", "m or rad", "0", "", "the coordinate at which the spring is relaxed"},
    {"springs[] linear", "type", "linear", "", "required", "", ""},
    {"springs[] linear", "a", "<spring end>", "", "required", "", "one end"},
    {"springs[] linear", "b", "<spring end>", "", "required", "", "the other end"},
    {"springs[] linear", "stiffness", "number", "N/m", "required", ">= 0", ""},
    {"springs[] linear", "damping", "number", "N s/m", "0", ">= 0", "along the line between the ends"},
    {"springs[] linear", "rest_length", "number", "m", "0", ">= 0", ""},
    {"<spring end>", "body", "name", "", "required", "", "world or a body"},
    {"<spring end>", "point", "[x, y, z]", "m", "[0, 0, 0]", "", "the point in that body's frame"},

    /* ---- constraints ---- */
    {"constraints[] connect", "type", "connect", "", "required", "",
     "a's point held at b's point: a ball joint that closes a loop"},
    {"constraints[] connect", "name", "name", "", "(constraint<index>)", "", "for messages and the output"},
    {"constraints[] connect", "a", "<constraint end>", "", "required", "", "one body and its point"},
    {"constraints[] connect", "b", "<constraint end>", "", "required", "",
     "the other; without a point, where a's point is at the start"},
    {"constraints[] connect", "stiffness", "number | rigid", "N/m", "rigid", "> 0",
     "rigid: the near-rigid law of a contact; a number: a spring of that stiffness"},
    {"constraints[] connect", "dissipation_time", "number", "s", "0", ">= 0",
     "the damper's time scale (damping = stiffness x dissipation_time)"},
    {"constraints[] weld", "type", "weld", "", "required", "",
     "b held where it is in a's frame at the start: position and orientation"},
    {"constraints[] weld", "name", "name", "", "(constraint<index>)", "", "for messages and the output"},
    {"constraints[] weld", "a", "<constraint end>", "", "required", "", "one body and the point held"},
    {"constraints[] weld", "b", "<constraint end>", "", "required", "",
     "the other; without a point, where a's point is at the start"},
    {"constraints[] weld", "quat", "[w, x, y, z]", "", "(as at the start)", "",
     "b's frame's orientation in a's frame (normalized)"},
    {"constraints[] weld", "stiffness", "number | rigid", "N/m and N m/rad", "rigid", "> 0",
     "of the three position rows (N/m) and the three rotation rows (N m/rad)"},
    {"constraints[] weld", "dissipation_time", "number", "s", "0", ">= 0", "the damper's time scale"},
    {"constraints[] joint", "type", "joint", "", "required", "",
     "one joint's coordinate a polynomial of another's: q = c0 + c1 q_of + ... + c4 q_of^4"},
    {"constraints[] joint", "name", "name", "", "(constraint<index>)", "", "for messages and the output"},
    {"constraints[] joint", "joint", "name", "", "required", "",
     "the driven joint: a body whose joint is revolute or prismatic"},
    {"constraints[] joint", "of", "name", "", "(none: the joint is held at offset)", "",
     "the driving joint: a body whose joint is revolute or prismatic"},
    {"constraints[] joint", "ratio", "number", "-", "1", "", "c1 (a gear ratio, URDF's mimic multiplier)"},
    {"constraints[] joint", "offset", "number", "m or rad", "0", "", "c0"},
    {"constraints[] joint", "polynomial", "list of numbers", "", "(ratio and offset)", "",
     "up to five coefficients; instead of ratio and offset"},
    {"constraints[] joint", "reference", "[r, r_of]", "m or rad", "[0, 0]", "",
     "the coordinates' origins: q - r = c0 + c1 (q_of - r_of) + ... (MuJoCo's joint refs)"},
    {"constraints[] joint", "stiffness", "number | rigid", "N/m or N m/rad", "rigid", "> 0", ""},
    {"constraints[] joint", "dissipation_time", "number", "s", "0", ">= 0", ""},
    {"constraints[] distance", "type", "distance", "", "required", "",
     "the distance between two body points held: a massless rigid rod with ball ends"},
    {"constraints[] distance", "name", "name", "", "(constraint<index>)", "", "for messages and the output"},
    {"constraints[] distance", "a", "<constraint end>", "", "required", "", "one body and its point"},
    {"constraints[] distance", "b", "<constraint end>", "", "required", "", "the other body and its point"},
    {"constraints[] distance", "distance", "number", "m", "(the points' distance at the start)", "> 0", ""},
    {"constraints[] distance", "stiffness", "number | rigid", "N/m", "rigid", "> 0", ""},
    {"constraints[] distance", "dissipation_time", "number", "s", "0", ">= 0", ""},
    {"<constraint end>", "body", "name", "", "required", "", "world or a body"},
    {"<constraint end>", "point", "[x, y, z]", "m", "(a: [0, 0, 0]; b: where a's point is at the start, [0, 0, 0] for a distance)", "",
     "the point in that body's frame"},

    /* ---- actuators ---- */
    {"actuators[]", "name", "name", "", "required", "", "unique among actuators"},
    {"actuators[]", "type", "motor | position | velocity", "", "required", "",
     "a force source, or a servo to a position or a velocity"},
    {"actuators[]", "joint", "name", "", "required", "",
     "a body whose joint is revolute, prismatic or planar"},
    {"actuators[]", "dof", "integer", "", "0", ">= 0", "which of the joint's velocities"},
    {"actuators[]", "command", "number | name", "(the type's)", "0", "",
     "the input: a command's name or a constant; motor: u, position: the target coordinate (m or "
     "rad), velocity: the target velocity (m/s or rad/s)"},
    {"actuators[]", "effort", "[lo, hi]", "N or N m", "[null, null]", "",
     "bounds of the generalized force, null for an open side; lo < hi"},
    {"actuators[] motor", "gear", "number", "-", "1", "!= 0", "the generalized force is gear * u"},
    {"actuators[] position", "kp", "number", "N/m or N m/rad", "required", "> 0", "servo stiffness"},
    {"actuators[] position", "kd", "number", "N s/m or N m s/rad", "0", ">= 0", "servo damping"},
    {"actuators[] position", "velocity_command", "number | name", "m/s or rad/s", "0", "",
     "the commanded velocity the damping acts against: a command's name or a constant"},
    {"actuators[] position", "theta", "auto | number in (0, 1]", "", "auto", "",
     "where in the step the servo law is evaluated; auto: the integrator's choice"},
    {"actuators[] velocity", "kd", "number", "N s/m or N m s/rad", "required", "> 0", "servo gain"},
    {"actuators[] velocity", "theta", "auto | number in (0, 1]", "", "auto", "",
     "where in the step the servo law is evaluated; auto: the integrator's choice"},

    /* ---- commands ---- */
    {"commands[]", "name", "name", "", "(required unless a CSV file)", "",
     "unique among all commands (a CSV file's columns included)"},
    {"commands[]", "time", "list of numbers", "s", "(a constant: one sample at 0)", "",
     "the sample times, strictly increasing; with value as a list of as many"},
    {"commands[]", "value", "number | list of numbers", "(the actuator's)", "(required unless a file)",
     "", "a constant, or the samples' values (with time)"},
    {"commands[]", "interpolation", "linear | hold", "", "linear", "",
     "between samples: linear, or the last sample's value; outside them the end values hold"},
    {"commands[]", "file", "path", "", "(none)", "",
     "relative to the scene's directory; without dataset a CSV file whose header is time and the "
     "commands' names (one command per column), with dataset an HDF5 file"},
    {"commands[]", "dataset", "path", "", "(none)", "",
     "the (n, 2) numeric dataset of times and values in the HDF5 file"},

    /* ---- models ---- */
    {"models[]", "file", "path", "", "required", "",
     "an MJCF or URDF model, relative to the scene's directory"},
    {"models[]", "prefix", "name", "", "\"\"", "",
     "put before each of the model's body, joint and actuator names"},
    {"models[]", "pose", "<pose>", "", "(the world frame)", "",
     "where the model's root bodies (and its static shapes) are placed"},
    {"models[]", "fixed_base", "true/false", "", "(the model's: MJCF as written, URDF fixed)", "",
     "true welds the roots to the world (a free root joint becomes fixed); false gives each root "
     "that is not free a free joint"},
    {"models[]", "allow_unsupported", "true/false", "", "false", "",
     "translate the model although it uses what simc ignores (as --allow-unsupported)"},
    {"models[]", "model_path", "path", "", "(--model-path)", "",
     "the directory of a URDF's package:// meshes, relative to the scene's directory"},

    /* ---- output ---- */
    {"output", "every", "integer", "", "1", ">= 1", "record every k-th step"},
    {"output", "contacts", "true/false", "", "true", "", "write the /contact datasets"},
    {"output", "solver_trace", "true/false", "", "false", "",
     "write /solver/trace (every Newton iteration; solves each step whole, not by island)"},
};

const sc_scene_key* sc_scene_keys(int* n) {
  *n = (int)(sizeof keys / sizeof keys[0]);
  return keys;
}

int sc_scene_section_keys(const char* section, const char** names, int max) {
  int k = 0;
  for (size_t i = 0; i < sizeof keys / sizeof keys[0] && k < max; i++)
    if (strcmp(keys[i].section, section) == 0) names[k++] = keys[i].key;
  return k;
}
