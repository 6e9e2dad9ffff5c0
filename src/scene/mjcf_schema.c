/* mjcf_schema: MuJoCo 2.2.2's MJCF schema, and what simc does with each of
 * its elements and attributes.  An element or attribute outside the schema
 * is an error at its line, as in MuJoCo; an attribute that changes the
 * dynamics and is not translated is reported by name (refused unless
 * --allow-unsupported); the rest is translated or has no effect on the
 * dynamics (visuals, sensors, solver settings simc replaces by its own).
 *
 * The rows were generated once from MuJoCo 2.2.2 itself:
 *   mj_printSchema(NULL, buf, sizeof buf, 0, 0) printed into schema.txt, then
 *   awk 'function flush(){ if (name!="") printf "    {%d, \"%s\", \"%s\"},\n", depth, name, attrs }
 *        { head=substr($0,1,30); rest=substr($0,31); gsub(/ +$/,"",rest);
 *          if (head ~ /[^ ]/) { flush(); match(head,/^ * /); depth=RLENGTH/3;
 *            split(substr(head,RLENGTH+1),w," "); name=w[1]; sub(/^\(world\)/,"",name); attrs=rest }
 *          else attrs = attrs " " rest }
 *        END{flush()}' schema.txt
 * (with no space between the regex's star and its closing slash); a row's
 * depth is its nesting, its parent the nearest row above of one less depth.
 * <body> and <default> nest in themselves; <worldbody> is the <body> row;
 * <include> is expanded before the check. */
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"
#include "scene/xml_import.h"

typedef struct srow {
  int depth;
  const char* name;
  const char* attrs;
} srow;

static const srow schema[] = {
    {0, "mujoco", "model"},
    {1, "compiler", "autolimits boundmass boundinertia settotalmass balanceinertia strippath coordinate angle fitaabb eulerseq meshdir texturedir discardvisual convexhull usethread fusestatic inertiafromgeom inertiagrouprange exactmeshinertia"},
    {2, "lengthrange", "mode useexisting uselimit accel maxforce timeconst timestep inttotal inteval tolrange"},
    {1, "option", "timestep apirate impratio tolerance noslip_tolerance mpr_tolerance gravity wind magnetic density viscosity o_margin o_solref o_solimp integrator collision cone jacobian solver iterations noslip_iterations mpr_iterations"},
    {2, "flag", "constraint equality frictionloss limit contact passive gravity clampctrl warmstart filterparent actuation refsafe sensor override energy fwdinv sensornoise multiccd"},
    {1, "size", "njmax nconmax nstack nuserdata nkey nuser_body nuser_jnt nuser_geom nuser_site nuser_cam nuser_tendon nuser_actuator nuser_sensor"},
    {1, "visual", ""},
    {2, "global", "fovy ipd azimuth elevation linewidth glow offwidth offheight"},
    {2, "quality", "shadowsize offsamples numslices numstacks numquads"},
    {2, "headlight", "ambient diffuse specular active"},
    {2, "map", "stiffness stiffnessrot force torque alpha fogstart fogend znear zfar haze shadowclip shadowscale actuatortendon"},
    {2, "scale", "forcewidth contactwidth contactheight connect com camera light selectpoint jointlength jointwidth actuatorlength actuatorwidth framelength framewidth constraint slidercrank"},
    {2, "rgba", "fog haze force inertia joint actuator actuatornegative actuatorpositive com camera light selectpoint connect contactpoint contactforce contactfriction contacttorque contactgap rangefinder constraint slidercrank crankbroken"},
    {1, "statistic", "meaninertia meanmass meansize extent center"},
    {1, "default", "class"},
    {2, "mesh", "scale"},
    {2, "material", "texture emission specular shininess reflectance rgba texrepeat texuniform"},
    {2, "joint", "type group pos axis springdamper limited solreflimit solimplimit solreffriction solimpfriction stiffness range margin ref springref armature damping frictionloss user"},
    {2, "geom", "type pos quat contype conaffinity condim group priority size material friction mass density shellinertia solmix solref solimp margin gap fromto axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef user"},
    {2, "site", "type group pos quat material size fromto axisangle xyaxes zaxis euler rgba user"},
    {2, "camera", "fovy ipd pos quat axisangle xyaxes zaxis euler mode user"},
    {2, "light", "pos dir directional castshadow active attenuation cutoff exponent ambient diffuse specular mode"},
    {2, "pair", "condim friction solref solimp gap margin"},
    {2, "equality", "active solref solimp"},
    {2, "tendon", "group limited range solreflimit solimplimit solreffriction solimpfriction frictionloss springlength width material margin stiffness damping rgba user"},
    {2, "general", "ctrllimited forcelimited actlimited ctrlrange forcerange actrange gear cranklength user group dyntype gaintype biastype dynprm gainprm biasprm"},
    {2, "motor", "ctrllimited forcelimited ctrlrange forcerange gear cranklength user group"},
    {2, "position", "ctrllimited forcelimited ctrlrange forcerange gear cranklength user group kp"},
    {2, "velocity", "ctrllimited forcelimited ctrlrange forcerange gear cranklength user group kv"},
    {2, "intvelocity", "ctrllimited forcelimited ctrlrange forcerange actrange gear cranklength user group kp"},
    {2, "damper", "forcelimited ctrlrange forcerange gear cranklength user group kv"},
    {2, "cylinder", "ctrllimited forcelimited ctrlrange forcerange gear cranklength user group timeconst area diameter bias"},
    {2, "muscle", "ctrllimited forcelimited ctrlrange forcerange gear cranklength user group timeconst range force scale lmin lmax vmax fpmax fvmax"},
    {2, "adhesion", "forcelimited ctrlrange forcerange gain user group"},
    {1, "custom", ""},
    {2, "numeric", "name size data"},
    {2, "text", "name data"},
    {2, "tuple", "name"},
    {3, "element", "objtype objname prm"},
    {1, "asset", ""},
    {2, "texture", "name type file gridsize gridlayout fileright fileleft fileup filedown filefront fileback builtin rgb1 rgb2 mark markrgb random width height hflip vflip"},
    {2, "hfield", "name file nrow ncol size"},
    {2, "mesh", "name class file vertex normal texcoord face refpos refquat scale smoothnormal"},
    {2, "skin", "name file material rgba inflate vertex texcoord face group"},
    {3, "bone", "body bindpos bindquat vertid vertweight"},
    {2, "material", "name class texture texrepeat texuniform emission specular shininess reflectance rgba"},
    {1, "body", "name childclass pos quat mocap axisangle xyaxes zaxis euler user"},
    {2, "inertial", "pos quat mass diaginertia axisangle xyaxes zaxis euler fullinertia"},
    {2, "joint", "name class type group pos axis springdamper limited solreflimit solimplimit solreffriction solimpfriction stiffness range margin ref springref armature damping frictionloss user"},
    {2, "freejoint", "name group"},
    {2, "geom", "name class type contype conaffinity condim group priority size material friction mass density shellinertia solmix solref solimp margin gap fromto pos quat axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef user"},
    {2, "site", "name class type group pos quat material size fromto axisangle xyaxes zaxis euler rgba user"},
    {2, "camera", "name class fovy ipd pos quat axisangle xyaxes zaxis euler mode target user"},
    {2, "light", "name class directional castshadow active pos dir attenuation cutoff exponent ambient diffuse specular mode target"},
    {2, "composite", "prefix type count spacing offset flatinertia solrefsmooth solimpsmooth"},
    {3, "joint", "kind group stiffness damping armature solreffix solimpfix limited range margin solreflimit solimplimit frictionloss solreffriction solimpfriction"},
    {3, "tendon", "kind group stiffness damping solreffix solimpfix limited range margin solreflimit solimplimit frictionloss solreffriction solimpfriction material rgba width"},
    {3, "skin", "texcoord material group rgba inflate subgrid"},
    {3, "geom", "type contype conaffinity condim group priority size material rgba friction mass density solmix solref solimp margin gap"},
    {3, "site", "group size material rgba"},
    {3, "pin", "coord"},
    {1, "contact", ""},
    {2, "pair", "name class geom1 geom2 condim friction solref solimp gap margin"},
    {2, "exclude", "name body1 body2"},
    {1, "equality", ""},
    {2, "connect", "name class body1 body2 anchor active solref solimp"},
    {2, "weld", "name class body1 body2 relpose anchor active solref solimp torquescale"},
    {2, "joint", "name class joint1 joint2 polycoef active solref solimp"},
    {2, "tendon", "name class tendon1 tendon2 polycoef active solref solimp"},
    {2, "distance", "name class geom1 geom2 distance active solref solimp"},
    {1, "tendon", ""},
    {2, "spatial", "name class group limited range solreflimit solimplimit solreffriction solimpfriction frictionloss springlength width material margin stiffness damping rgba user"},
    {3, "site", "site"},
    {3, "geom", "geom sidesite"},
    {3, "pulley", "divisor"},
    {2, "fixed", "name class group limited range solreflimit solimplimit solreffriction solimpfriction frictionloss springlength margin stiffness damping user"},
    {3, "joint", "joint coef"},
    {1, "actuator", ""},
    {2, "general", "name class group ctrllimited forcelimited actlimited ctrlrange forcerange actrange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite body dyntype gaintype biastype dynprm gainprm biasprm"},
    {2, "motor", "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite"},
    {2, "position", "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite kp"},
    {2, "velocity", "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite kv"},
    {2, "intvelocity", "name class group ctrllimited forcelimited ctrlrange forcerange actrange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite kp"},
    {2, "damper", "name class group forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite kv"},
    {2, "cylinder", "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite site refsite timeconst area diameter bias"},
    {2, "muscle", "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength user joint jointinparent tendon slidersite cranksite timeconst range force scale lmin lmax vmax fpmax fvmax"},
    {2, "adhesion", "name class group forcelimited ctrlrange forcerange user body gain"},
    {1, "sensor", ""},
    {2, "touch", "name site cutoff noise user"},
    {2, "accelerometer", "name site cutoff noise user"},
    {2, "velocimeter", "name site cutoff noise user"},
    {2, "gyro", "name site cutoff noise user"},
    {2, "force", "name site cutoff noise user"},
    {2, "torque", "name site cutoff noise user"},
    {2, "magnetometer", "name site cutoff noise user"},
    {2, "rangefinder", "name site cutoff noise user"},
    {2, "jointpos", "name joint cutoff noise user"},
    {2, "jointvel", "name joint cutoff noise user"},
    {2, "tendonpos", "name tendon cutoff noise user"},
    {2, "tendonvel", "name tendon cutoff noise user"},
    {2, "actuatorpos", "name actuator cutoff noise user"},
    {2, "actuatorvel", "name actuator cutoff noise user"},
    {2, "actuatorfrc", "name actuator cutoff noise user"},
    {2, "ballquat", "name joint cutoff noise user"},
    {2, "ballangvel", "name joint cutoff noise user"},
    {2, "jointlimitpos", "name joint cutoff noise user"},
    {2, "jointlimitvel", "name joint cutoff noise user"},
    {2, "jointlimitfrc", "name joint cutoff noise user"},
    {2, "tendonlimitpos", "name tendon cutoff noise user"},
    {2, "tendonlimitvel", "name tendon cutoff noise user"},
    {2, "tendonlimitfrc", "name tendon cutoff noise user"},
    {2, "framepos", "name objtype objname reftype refname cutoff noise user"},
    {2, "framequat", "name objtype objname reftype refname cutoff noise user"},
    {2, "framexaxis", "name objtype objname reftype refname cutoff noise user"},
    {2, "frameyaxis", "name objtype objname reftype refname cutoff noise user"},
    {2, "framezaxis", "name objtype objname reftype refname cutoff noise user"},
    {2, "framelinvel", "name objtype objname reftype refname cutoff noise user"},
    {2, "frameangvel", "name objtype objname reftype refname cutoff noise user"},
    {2, "framelinacc", "name objtype objname cutoff noise user"},
    {2, "frameangacc", "name objtype objname cutoff noise user"},
    {2, "subtreecom", "name body cutoff noise user"},
    {2, "subtreelinvel", "name body cutoff noise user"},
    {2, "subtreeangmom", "name body cutoff noise user"},
    {2, "clock", "name cutoff noise user"},
    {2, "user", "name objtype objname datatype needstage dim cutoff noise user"},
    {1, "keyframe", ""},
    {2, "key", "name time qpos qvel act mpos mquat ctrl"},
};

/* What simc does with an element (by its schema parent and name):
 *  'T' translated, each attribute in one of four lists: tr (translated), rep
 *      (reported by the translator itself when it matters: a value it does
 *      not translate), uns (reported here when present, or when not the
 *      default after '='; commas stand for spaces) and none (no effect on
 *      the dynamics);
 *  'E' reported as a whole by the translator (tendons, tendon equality, ...);
 *  'X' no effect on the dynamics, nor anything below it.
 * An element missing here takes its parent's 'E' or 'X'. */
typedef struct scls {
  const char* key; /* "parent>name" */
  char cls;
  const char *tr, *rep, *uns, *none;
} scls;

#define JOINT_TR \
  "name class type pos axis limited stiffness range ref springref armature damping frictionloss springdamper margin"
#define JOINT_UNS "solreffriction solimpfriction"
#define GEOM_TR                                                                                                \
  "name class type contype conaffinity size friction mass density fromto pos quat axisangle xyaxes zaxis euler " \
  "mesh priority solmix"
#define GEOM_NONE "group material rgba user hfield fluidcoef"
/* (solreffriction and solimpfriction only shape frictionloss, reported) */
#define TEN_TR "limited range margin stiffness damping springlength"
#define TEN_REP "solreflimit solimplimit frictionloss"
#define TEN_NONE "group width material rgba user solreffriction solimpfriction"
#define ACT_TR "name class ctrllimited forcelimited ctrlrange forcerange gear joint kp kv tendon slidersite cranksite cranklength"
#define ACT_REP "site refsite jointinparent"
#define ACT_NONE "group user lengthrange"

static const scls classes[] = {
    {"mujoco>mujoco", 'T', "model", "", "", ""},
    {"mujoco>compiler", 'T',
        "angle eulerseq meshdir inertiafromgeom autolimits exactmeshinertia boundmass boundinertia settotalmass "
        "balanceinertia coordinate",
        "", "inertiagrouprange=0,5",
        "strippath fitaabb texturedir discardvisual convexhull usethread fusestatic"},
    {"compiler>lengthrange", 'X', 0, 0, 0, 0}, /* muscles' length ranges */
    {"mujoco>option", 'T', "timestep gravity collision density viscosity wind", "", "impratio=1",
        /* simc's own integrator, contact solver and friction cone; magnetic
         * acts on sensors; o_* only through <flag override>, reported */
        "apirate tolerance noslip_tolerance mpr_tolerance magnetic o_margin o_solref o_solimp integrator cone "
        "jacobian solver iterations noslip_iterations mpr_iterations"},
    /* the switches that leave a kind of row or force out are translated;
     * those of MuJoCo's own solver and outputs have no effect */
    {"option>flag", 'T', "constraint equality frictionloss limit contact gravity",
        "passive clampctrl filterparent actuation override multiccd", "",
        "warmstart refsafe sensor energy fwdinv sensornoise"},
    {"mujoco>size", 'X', 0, 0, 0, 0},
    {"mujoco>visual", 'X', 0, 0, 0, 0},
    {"mujoco>statistic", 'X', 0, 0, 0, 0},
    {"mujoco>default", 'T', "class", "", "", ""},
    {"default>mesh", 'T', "scale", "", "", ""},
    {"default>material", 'X', 0, 0, 0, 0},
    {"default>joint", 'T', JOINT_TR, "solreflimit solimplimit", JOINT_UNS, "group user"},
    {"default>geom", 'T', GEOM_TR, "condim solref solimp margin gap", "shellinertia=false fitscale=1 fluidshape=none",
        GEOM_NONE},
    {"default>site", 'T', "pos quat axisangle xyaxes zaxis euler fromto", "", "", "type group material size rgba user"},
    {"default>camera", 'X', 0, 0, 0, 0},
    {"default>light", 'X', 0, 0, 0, 0},
    /* classes of what is reported where it is used (general, muscle,
     * tendon and equality classes also where they are defined) */
    {"default>pair", 'X', 0, 0, 0, 0},
    {"default>equality", 'T', "active", "solref solimp", "", ""},
    {"default>tendon", 'T', TEN_TR, TEN_REP, "", TEN_NONE},
    {"default>general", 'E', 0, 0, 0, 0},
    {"default>intvelocity", 'X', 0, 0, 0, 0},
    {"default>damper", 'X', 0, 0, 0, 0},
    {"default>cylinder", 'X', 0, 0, 0, 0},
    {"default>muscle", 'E', 0, 0, 0, 0},
    {"default>adhesion", 'X', 0, 0, 0, 0},
    {"default>motor", 'T', ACT_TR, ACT_REP, "", ACT_NONE},
    {"default>position", 'T', ACT_TR, ACT_REP, "", ACT_NONE},
    {"default>velocity", 'T', ACT_TR, ACT_REP, "", ACT_NONE},
    {"mujoco>custom", 'X', 0, 0, 0, 0},
    {"mujoco>asset", 'T', "", "", "", ""},
    {"asset>texture", 'X', 0, 0, 0, 0},
    {"asset>hfield", 'X', 0, 0, 0, 0}, /* a geom of type hfield is reported */
    {"asset>mesh", 'T', "name class file scale", "vertex face", "refpos=0,0,0 refquat=1,0,0,0",
        "normal texcoord smoothnormal"},
    {"asset>skin", 'X', 0, 0, 0, 0},
    {"asset>material", 'X', 0, 0, 0, 0},
    /* a mocap body nobody moves stays where the model puts it: simc's fixed body */
    {"mujoco>body", 'T', "name childclass pos quat axisangle xyaxes zaxis euler", "", "", "mocap user"},
    {"body>inertial", 'T', "pos quat mass diaginertia axisangle xyaxes zaxis euler fullinertia", "", "", ""},
    {"body>joint", 'T', JOINT_TR, "solreflimit solimplimit", JOINT_UNS, "group user"},
    {"body>freejoint", 'T', "name", "", "", "group"},
    {"body>geom", 'T', GEOM_TR, "condim solref solimp margin gap", "shellinertia=false fitscale=1 fluidshape=none",
        GEOM_NONE},
    {"body>site", 'T', "name class pos quat axisangle xyaxes zaxis euler fromto", "", "", "type group material size rgba user"},
    {"body>camera", 'X', 0, 0, 0, 0},
    {"body>light", 'X', 0, 0, 0, 0},
    {"body>composite", 'T', "prefix type count spacing offset flatinertia solrefsmooth solimpsmooth", "", "", ""},
    {"composite>joint", 'T',
        "kind stiffness damping armature solreffix solimpfix limited range margin solreflimit solimplimit frictionloss",
        "", JOINT_UNS, "group"},
    {"composite>tendon", 'T',
        "kind stiffness damping solreffix solimpfix limited range margin solreflimit solimplimit frictionloss", "", "",
        "group material rgba width solreffriction solimpfriction"},
    {"composite>skin", 'X', 0, 0, 0, 0},
    {"composite>geom", 'T',
        "type contype conaffinity condim priority size friction mass density solmix solref solimp margin gap", "", "",
        "group material rgba"},
    {"composite>site", 'X', 0, 0, 0, 0},
    {"composite>pin", 'T', "coord", "", "", ""},
    {"mujoco>contact", 'T', "", "", "", ""},
    {"contact>pair", 'E', 0, 0, 0, 0},
    {"contact>exclude", 'T', "name body1 body2", "", "", ""},
    {"mujoco>equality", 'T', "", "", "", ""},
    {"equality>connect", 'T', "name class body1 body2 anchor active", "solref solimp", "", ""},
    {"equality>weld", 'T', "name class body1 body2 anchor relpose active", "solref solimp torquescale", "", ""},
    {"equality>joint", 'T', "name class joint1 joint2 polycoef active", "solref solimp", "", ""},
    {"equality>tendon", 'T', "name class tendon1 tendon2 polycoef active", "solref solimp", "", ""},
    {"equality>distance", 'E', 0, 0, 0, 0}, /* refused, as MuJoCo 2.2.2 refuses it */
    {"mujoco>tendon", 'T', "", "", "", ""},
    {"tendon>spatial", 'T', "name class " TEN_TR, TEN_REP, "", TEN_NONE},
    {"spatial>site", 'T', "site", "", "", ""},
    {"spatial>geom", 'T', "geom sidesite", "", "", ""},
    {"spatial>pulley", 'T', "divisor", "", "", ""},
    {"tendon>fixed", 'T', "name class " TEN_TR, TEN_REP, "", TEN_NONE},
    {"fixed>joint", 'T', "joint coef", "", "", ""},
    {"mujoco>actuator", 'T', "", "", "", ""},
    {"actuator>general", 'E', 0, 0, 0, 0},
    {"actuator>motor", 'T', ACT_TR, ACT_REP, "", ACT_NONE},
    {"actuator>position", 'T', ACT_TR, ACT_REP, "", ACT_NONE},
    {"actuator>velocity", 'T', ACT_TR, ACT_REP, "", ACT_NONE},
    {"actuator>intvelocity", 'E', 0, 0, 0, 0},
    {"actuator>damper", 'E', 0, 0, 0, 0},
    {"actuator>cylinder", 'E', 0, 0, 0, 0},
    {"actuator>muscle", 'E', 0, 0, 0, 0},
    {"actuator>adhesion", 'E', 0, 0, 0, 0},
    {"mujoco>sensor", 'X', 0, 0, 0, 0},
    {"mujoco>keyframe", 'X', 0, 0, 0, 0},
};

#define NROW ((int)(sizeof schema / sizeof schema[0]))
#define NCLS ((int)(sizeof classes / sizeof classes[0]))

/* 1 when word w is one of list's space separated words; *dflt (when not
 * NULL) receives what follows its '=' (empty when none) */
static int in_list(const char* list, const char* w, char* dflt, size_t dsz) {
  if (!list) return 0;
  const size_t n = strlen(w);
  for (const char* p = list; *p;) {
    while (*p == ' ') p++;
    const char* e = p;
    while (*e && *e != ' ' && *e != '=') e++;
    const char* v = e;
    const char* end = e;
    while (*end && *end != ' ') end++;
    if ((size_t)(e - p) == n && n && strncmp(p, w, n) == 0) {
      if (dflt) {
        size_t k = 0;
        if (*v == '=')
          for (const char* q = v + 1; q < end && k + 1 < dsz; q++) dflt[k++] = *q == ',' ? ' ' : *q;
        dflt[k] = '\0';
      }
      return 1;
    }
    p = end;
  }
  return 0;
}

static int parent_row(int r) {
  for (int i = r - 1; i >= 0; i--)
    if (schema[i].depth == schema[r].depth - 1) return i;
  return -1;
}

static const scls* class_row(int r) {
  char key[64];
  const int p = parent_row(r);
  snprintf(key, sizeof key, "%s>%s", p < 0 ? "mujoco" : schema[p].name, schema[r].name);
  for (int i = 0; i < NCLS; i++)
    if (strcmp(classes[i].key, key) == 0) return &classes[i];
  return NULL;
}

/* the row of element `name` under the element of row r (-1 none) */
static int child_row(int r, const char* name) {
  if (r == 0 && strcmp(name, "worldbody") == 0) name = "body";
  else if (r != 0 && strcmp(name, schema[r].name) == 0 && (strcmp(name, "body") == 0 || strcmp(name, "default") == 0))
    return r; /* nested bodies and defaults */
  else if (r == 0 && strcmp(name, "body") == 0)
    return -1;
  for (int i = r + 1; i < NROW && schema[i].depth > schema[r].depth; i++)
    if (schema[i].depth == schema[r].depth + 1 && strcmp(schema[i].name, name) == 0) return i;
  return -1;
}

/* a value equal to the default text d: the same numbers, or the same word */
static int is_default(const char* v, const char* d) {
  double a[16], b[16];
  const int na = xi_numbers(v, a, 16), nb = xi_numbers(d, b, 16);
  if (nb > 0) {
    if (na != nb) return 0;
    for (int i = 0; i < na; i++)
      if (a[i] != b[i]) return 0;
    return 1;
  }
  return strcmp(v, d) == 0;
}

static sc_status check_el(tr* t, const xmlNode* n, int r, char inherited) {
  const scls* c = inherited ? NULL : class_row(r);
  const char cls = inherited ? inherited : c ? c->cls : 'X';
  if (strcmp(xi_name(n), "worldbody") == 0 && n->properties)
    return xi_fail(t, n, (const char*)n->properties->name, "the worldbody has no attributes");
  for (const xmlAttr* a = n->properties; a; a = a->next) {
    const char* an = (const char*)a->name;
    if (!in_list(schema[r].attrs, an, NULL, 0))
      return xi_fail(t, n, an, "unknown attribute (not in MuJoCo 2.2.2's schema for <%s>)", xi_name(n));
    char d[64];
    if (cls == 'T' && in_list(c->uns, an, d, sizeof d)) {
      const char* v = xi_attr(n, an);
      if (!v || (d[0] && is_default(v, d))) continue;
      char what[96];
      snprintf(what, sizeof what, "%s %s", schema[r].name, an);
      xi_unsupported(t, n, what);
    }
  }
  for (const xmlNode* k = n->children; k; k = k->next) {
    if (k->type != XML_ELEMENT_NODE) continue;
    if (r == 0 && strcmp(xi_name(k), "include") == 0) continue; /* expanded, and checked, by collect */
    const int kr = child_row(r, xi_name(k));
    if (kr < 0)
      return xi_fail(t, k, NULL, "unknown element in <%s> (not in MuJoCo 2.2.2's schema)", xi_name(n));
    TRY(check_el(t, k, kr, cls == 'T' ? 0 : cls));
  }
  return SC_OK;
}

sc_status xi_mjcf_check_schema(tr* t) {
  for (int i = 0; i < t->ndoc; i++) {
    const xmlNode* root = xmlDocGetRootElement(t->doc[i]);
    if (root) TRY(check_el(t, root, 0, 0));
  }
  return SC_OK;
}

/* ---- for tests ---- */

int sc_mjcf_schema_rows(void) { return NROW; }

void sc_mjcf_schema_row(int i, int* depth, const char** name, const char** attrs, const char** parent) {
  *depth = schema[i].depth;
  *name = schema[i].name;
  *attrs = schema[i].attrs;
  const int p = parent_row(i);
  *parent = p < 0 ? NULL : schema[p].name;
}

char sc_mjcf_schema_class(int i, const char* attr, char* dflt, size_t dsz) {
  if (dsz) dflt[0] = '\0';
  for (int r = i; r >= 0; r = parent_row(r)) {
    const scls* c = class_row(r);
    if (!c) continue; /* inherits */
    if (c->cls != 'T') return c->cls;
    if (r != i) return 0; /* under a translated element, every element is listed */
    if (!attr) return 'T';
    if (in_list(c->tr, attr, NULL, 0)) return 't';
    if (in_list(c->rep, attr, NULL, 0)) return 'r';
    if (in_list(c->uns, attr, dflt, dsz)) return 'u';
    if (in_list(c->none, attr, NULL, 0)) return 'n';
    return 0;
  }
  return 0;
}
