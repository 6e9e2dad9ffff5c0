#!/usr/bin/env node
// mjbench.mjs MODEL.xml NSTEPS [--window T0] [--states]: time NSTEPS calls of
// mj_step on an MJCF model with MuJoCo's official WebAssembly build (npm
// package mujoco-js, pinned in package.json) and print one line
//   steps_per_second=<x> mean_ncon=<y> mean_solver_iter=<z> energy_drift=<rel>
//   ms_per_step=<ms> window_steps=<n> mean_speed=<m/s> max_speed=<m/s>
//   max_depth=<m> floor_ratio=<r> max_drop=<m> mujoco_version=<v>
// the fields of tools/bench/mujoco/mjbench.c (MuJoCo 2.2.2, native; see its
// header for the definitions, which this file follows) plus the MuJoCo
// version; --states adds one line per free body after it
//   body I x y z qw qx qy qz vx vy vz wx wy wz
// The model's directory tree is copied into the WASM virtual filesystem under
// /working (same absolute path below it), so <include> and asset files next
// to the model resolve; MJBENCH_TREE=DIR copies DIR instead (for models
// referring to files above their own directory).  The model's own options are
// used; keyframe 0 (if any) is the initial state.
// Window: the steps whose end time (k+1)*timestep is > T0 (default 0: all);
// each mj_step of the window is timed on its own (performance.now()), the
// earlier steps are run untimed.  mean_ncon is the mean of ncon after each
// window step; mean_solver_iter the mean over window steps of the largest
// solver_niter over the step's constraint islands (MuJoCo 3 solves islands
// separately; 2.2.2 has one system, solver_iter).  energy_drift is
// (E_end - E_0) / |E_0| over the whole run when the model enables energy, nan
// otherwise.  Speeds are of the free bodies' centres of mass (from qpos/qvel:
// MuJoCo's free joint has the origin's linear velocity in the world frame and
// the angular velocity in the body frame); max_depth is the largest
// -contact.dist; floor_ratio the mean over window steps of the z force
// (mj_contactForce, rotated by contact.frame) that the floor plane -- a world
// plane geom with z axis +z at z = 0 -- applies to bodies, over (total
// moving mass * |gravity|), nan without such a plane; max_drop the largest
// initial z - final z of a body origin.
// MuJoCo warnings go to stderr and make the exit status 3.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

function die(msg, code = 1) {
  process.stderr.write(`mjbench.mjs: ${msg}\n`);
  process.exit(code);
}

const USAGE = 'usage: mjbench.mjs MODEL.xml NSTEPS [--window T0] [--states]';
const args = process.argv.slice(2);
if (args.length < 2) die(USAGE, 2);
const [modelArg, stepsArg] = args;
if (!/^[0-9]+$/.test(stepsArg) || Number(stepsArg) <= 0)
  die(`NSTEPS must be a positive integer, got '${stepsArg}'`, 2);
const steps = Number(stepsArg);
let tWin = 0, states = false;
for (let a = 2; a < args.length; a++) {
  if (args[a] === '--states') states = true;
  else if (args[a] === '--window') {
    const v = args[++a];
    // the same syntax as strtod's decimal numbers
    if (v === undefined || !/^[+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/.test(v) || !Number.isFinite(Number(v)))
      die(`--window needs a time >= 0, got '${v ?? ''}'`, 2);
    tWin = Number(v);
  } else die(`unknown option '${args[a]}'\n${USAGE}`, 2);
}

let modelPath;
try {
  modelPath = fs.realpathSync(modelArg);
} catch (e) {
  die(`${modelArg}: ${e.message}`);
}
const tree = fs.realpathSync(process.env.MJBENCH_TREE || path.dirname(modelPath));
const rel = path.relative(tree, modelPath);
if (rel.startsWith('..') || path.isAbsolute(rel)) die(`${modelArg} is not below MJBENCH_TREE=${tree}`, 2);

const { default: loadMujoco } = await import('mujoco-js').catch((e) =>
  die(`cannot load mujoco-js (run npm ci in ${path.dirname(new URL(import.meta.url).pathname)}): ${e.message}`, 2));
// MuJoCo's own messages (e.g. "Loading error: ...") go to stderr: stdout
// carries the result line only.
const toErr = (t) => process.stderr.write(`${t}\n`);
const mj = await loadMujoco({ print: toErr, printErr: toErr });

// Copy TREE (recursively, regular files only, skipping dot entries and
// node_modules) to /working/TREE in the virtual filesystem.
const MAX_BYTES = 512 * 1024 * 1024;
let copied = 0;
function mkdirs(p) {
  let cur = '';
  for (const part of p.split('/').filter(Boolean)) {
    cur += '/' + part;
    try { mj.FS.mkdir(cur); } catch { /* exists */ }
  }
}
function copyTree(src, dst) {
  mkdirs(dst);
  for (const ent of fs.readdirSync(src, { withFileTypes: true })) {
    if (ent.name.startsWith('.') || ent.name === 'node_modules') continue;
    const s = path.join(src, ent.name), d = dst + '/' + ent.name;
    let st;
    try { st = fs.statSync(s); } catch { continue; } // dangling link
    if (st.isDirectory()) copyTree(s, d);
    else if (st.isFile()) {
      copied += st.size;
      if (copied > MAX_BYTES) die(`${tree} holds more than ${MAX_BYTES >> 20} MiB; set MJBENCH_TREE to a smaller directory`, 2);
      mj.FS.writeFile(d, fs.readFileSync(s));
    }
  }
}
const vroot = '/working';
copyTree(tree, vroot + tree);

let m, d;
try {
  m = mj.MjModel.loadFromXML(vroot + modelPath);
} catch (e) {
  // The WASM build lets the XML reader's C++ exception escape without its
  // text: only its type (e.g. mjXError) is known here.
  const what = e?.message ?? String(e).replace(/^CppException\s*/, '');
  die(`${modelArg}: MuJoCo could not load the model (${what}; bin/mjbench or MuJoCo's simulate shows the message)`);
}
if (!m) die(`${modelArg}: MjModel.loadFromXML failed (see MuJoCo's message above)`);
d = new mj.MjData(m);
if (!d) die('MjData failed');

const h = m.opt.timestep;
let k0 = 0; // first window step: (k0 + 1) * h > tWin
while (k0 < steps && !((k0 + 1) * h > tWin)) k0++;
if (k0 >= steps) die(`--window ${tWin} leaves no step (${steps} steps of ${h} s end at t = ${steps * h})`, 2);

if (m.nkey > 0) mj.mj_resetDataKeyframe(m, d, 0);
const energy = (m.opt.enableflags & mj.mjtEnableBit.mjENBL_ENERGY.value) !== 0;
mj.mj_forward(m, d);
const e0 = d.energy[0] + d.energy[1];

// free bodies (body, qpos address, dof address, centre of mass in the body
// frame), floor geoms, total moving mass
const FREE = mj.mjtJoint.mjJNT_FREE.value, PLANE = mj.mjtGeom.mjGEOM_PLANE.value;
const free = [];
{
  const jt = m.jnt_type, jb = m.jnt_bodyid, jq = m.jnt_qposadr, jd = m.jnt_dofadr, ipos = m.body_ipos, qpos = d.qpos;
  for (let j = 0; j < m.njnt; j++) {
    if (jt[j] !== FREE) continue;
    const b = jb[j];
    free.push({ q: jq[j], v: jd[j], ipos: [ipos[3 * b], ipos[3 * b + 1], ipos[3 * b + 2]], z0: qpos[jq[j] + 2] });
  }
}
const floorGeom = new Uint8Array(m.ngeom);
let nfloor = 0;
{
  const gt = m.geom_type, gb = m.geom_bodyid, R = d.geom_xmat, p = d.geom_xpos;
  for (let g = 0; g < m.ngeom; g++) {
    // z axis = third column of the row-major rotation matrix
    if (gt[g] === PLANE && gb[g] === 0 && Math.abs(R[9 * g + 2]) < 1e-9 && Math.abs(R[9 * g + 5]) < 1e-9 &&
        Math.abs(R[9 * g + 8] - 1) < 1e-9 && Math.abs(p[3 * g + 2]) < 1e-12) {
      floorGeom[g] = 1;
      nfloor++;
    }
  }
}
let mass = 0;
{ const bm = m.body_mass; for (let b = 1; b < m.nbody; b++) mass += bm[b]; }
const grav = m.opt.gravity;
const gnorm = Math.hypot(grav[0], grav[1], grav[2]);

// rotate v by the unit quaternion q = (w, x, y, z) at q[o..o+3]
function rot(q, o, vx, vy, vz, out) {
  const w = q[o], a = q[o + 1], b = q[o + 2], c = q[o + 3];
  const tx = 2 * (b * vz - c * vy), ty = 2 * (c * vx - a * vz), tz = 2 * (a * vy - b * vx);
  out[0] = vx + w * tx + (b * tz - c * ty);
  out[1] = vy + w * ty + (c * tx - a * tz);
  out[2] = vz + w * tz + (a * ty - b * tx);
}
const W3 = [0, 0, 0], R3 = [0, 0, 0];
// world angular velocity (-> W3) and centre-of-mass linear velocity of body f
function comVel(f, qpos, qvel, out) {
  const v = f.v;
  rot(qpos, f.q + 3, qvel[v + 3], qvel[v + 4], qvel[v + 5], W3);
  rot(qpos, f.q + 3, f.ipos[0], f.ipos[1], f.ipos[2], R3);
  out[0] = qvel[v] + W3[1] * R3[2] - W3[2] * R3[1];
  out[1] = qvel[v + 1] + W3[2] * R3[0] - W3[0] * R3[2];
  out[2] = qvel[v + 2] + W3[0] * R3[1] - W3[1] * R3[0];
}

// steps before the window: untimed, unmeasured
for (let s = 0; s < k0; s++) mj.mj_step(m, d);

const fbuf = new mj.DoubleBuffer(6);
const VC = [0, 0, 0];
let ncon = 0, iters = 0, wall = 0;
let spdSum = 0, spdMax = 0, depthMax = 0, floorSum = 0;
for (let s = k0; s < steps; s++) {
  const ta = performance.now();
  mj.mj_step(m, d);
  wall += performance.now() - ta;
  const nc = d.ncon;
  ncon += nc;
  const niter = d.solver_niter;
  const nisl = Math.min(Math.max(d.nisland, 1), niter.length);
  let it = niter[0];
  for (let i = 1; i < nisl; i++) if (niter[i] > it) it = niter[i];
  iters += it;
  // views into the WASM heap: taken afresh each step (the heap may move)
  const qpos = d.qpos, qvel = d.qvel;
  for (const f of free) {
    comVel(f, qpos, qvel, VC);
    const sp = Math.hypot(VC[0], VC[1], VC[2]);
    spdSum += sp;
    if (sp > spdMax) spdMax = sp;
  }
  let fz = 0;
  const cv = d.contact;
  for (let i = 0; i < nc; i++) {
    const c = cv.get(i);
    if (-c.dist > depthMax) depthMax = -c.dist;
    const f1 = floorGeom[c.geom1], f2 = floorGeom[c.geom2];
    if (f1 !== f2) {
      mj.mj_contactForce(m, d, i, fbuf);
      const f = fbuf.GetView(), fr = c.frame;
      // world force on geom2 = frame^T f (rows of frame: normal, tangents)
      const z = f[0] * fr[2] + f[1] * fr[5] + f[2] * fr[8];
      fz += f1 ? z : -z;
    }
    c.delete();
  }
  cv.delete?.();
  floorSum += fz;
}
const nwin = steps - k0;
fbuf.delete();

mj.mj_forward(m, d);
const e1 = d.energy[0] + d.energy[1];
const drift = energy ? (e1 - e0) / Math.abs(e0) : NaN;
let drop = NaN;
{
  const qpos = d.qpos;
  for (const f of free) { const dz = f.z0 - qpos[f.q + 2]; if (!(dz <= drop)) drop = dz; }
}

const W = mj.mjtWarning;
const watch = ['mjWARN_CONTACTFULL', 'mjWARN_CNSTRFULL', 'mjWARN_BADQACC',
               'mjWARN_BADQPOS', 'mjWARN_BADQVEL', 'mjWARN_INERTIA'];
let bad = false;
for (const name of watch) {
  const idx = W[name].value;
  const n = d.warning.get(idx).number;
  if (n > 0) {
    process.stderr.write(`mjbench.mjs: ${modelArg}: MuJoCo warning ${name} (${idx}) raised ${n} times\n`);
    bad = true;
  }
}

const g = (x, p) => Number.isFinite(x) ? Number(x.toPrecision(p)).toString() : 'nan';
const drifts = Number.isFinite(drift) ? drift.toExponential(3) : 'nan';
const ratio = nfloor > 0 && mass > 0 && gnorm > 0 ? floorSum / nwin / (mass * gnorm) : NaN;
const nfree = free.length;
console.log(`steps_per_second=${g(nwin / (wall / 1000), 6)} mean_ncon=${g(ncon / nwin, 4)} ` +
            `mean_solver_iter=${g(iters / nwin, 4)} energy_drift=${drifts} ` +
            `ms_per_step=${g(wall / nwin, 9)} window_steps=${nwin} ` +
            `mean_speed=${g(nfree ? spdSum / (nfree * nwin) : NaN, 9)} max_speed=${g(nfree ? spdMax : NaN, 9)} ` +
            `max_depth=${g(depthMax, 9)} floor_ratio=${g(ratio, 9)} max_drop=${g(drop, 9)} ` +
            `mujoco_version=${mj.mj_versionString()}`);
if (states) {
  // %.17g: toPrecision(17) then Number -> shortest form that round-trips
  const e = (x) => Number.isFinite(x) ? String(x) : 'nan';
  const qpos = d.qpos, qvel = d.qvel, w = [0, 0, 0];
  free.forEach((f, i) => {
    const q = f.q, v = f.v;
    rot(qpos, q + 3, qvel[v + 3], qvel[v + 4], qvel[v + 5], w);
    console.log(`body ${i} ` + [qpos[q], qpos[q + 1], qpos[q + 2], qpos[q + 3], qpos[q + 4], qpos[q + 5], qpos[q + 6],
                                 qvel[v], qvel[v + 1], qvel[v + 2], w[0], w[1], w[2]].map(e).join(' '));
  });
}
d.delete();
m.delete();
process.exit(bad ? 3 : 0);
