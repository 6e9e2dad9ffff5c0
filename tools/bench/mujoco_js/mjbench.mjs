#!/usr/bin/env node
// mjbench.mjs MODEL.xml NSTEPS: time NSTEPS calls of mj_step on an MJCF model
// with MuJoCo's official WebAssembly build (npm package mujoco-js, pinned in
// package.json) and print one line
//   steps_per_second=<x> mean_ncon=<y> mean_solver_iter=<z> energy_drift=<rel> mujoco_version=<v>
// the fields of tools/bench/mujoco/mjbench.c (MuJoCo 2.2.2, native) plus the
// MuJoCo version.  The model's directory tree is copied into the WASM virtual
// filesystem under /working (same absolute path below it), so <include> and
// asset files next to the model resolve; MJBENCH_TREE=DIR copies DIR instead
// (for models referring to files above their own directory).  The model's own
// options are used; keyframe 0 (if any) is the initial state.  Only the
// stepping loop is timed (performance.now()).  mean_ncon is the mean of ncon
// after each step; mean_solver_iter the mean over steps of the largest
// solver_niter over the step's constraint islands (MuJoCo 3 solves islands
// separately; 2.2.2 has one system, solver_iter).  energy_drift is
// (E_end - E_0) / |E_0| when the model enables energy, nan otherwise.
// MuJoCo warnings go to stderr and make the exit status 3.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

function die(msg, code = 1) {
  process.stderr.write(`mjbench.mjs: ${msg}\n`);
  process.exit(code);
}

const args = process.argv.slice(2);
if (args.length !== 2) die('usage: mjbench.mjs MODEL.xml NSTEPS', 2);
const [modelArg, stepsArg] = args;
if (!/^[0-9]+$/.test(stepsArg) || Number(stepsArg) <= 0)
  die(`NSTEPS must be a positive integer, got '${stepsArg}'`, 2);
const steps = Number(stepsArg);

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

if (m.nkey > 0) mj.mj_resetDataKeyframe(m, d, 0);
const energy = (m.opt.enableflags & mj.mjtEnableBit.mjENBL_ENERGY.value) !== 0;
mj.mj_forward(m, d);
const e0 = d.energy[0] + d.energy[1];

let ncon = 0, iters = 0;
const t0 = performance.now();
for (let s = 0; s < steps; s++) {
  mj.mj_step(m, d);
  ncon += d.ncon;
  const niter = d.solver_niter;
  const nisl = Math.min(Math.max(d.nisland, 1), niter.length);
  let it = niter[0];
  for (let i = 1; i < nisl; i++) if (niter[i] > it) it = niter[i];
  iters += it;
}
const t1 = performance.now();

mj.mj_forward(m, d);
const e1 = d.energy[0] + d.energy[1];
const drift = energy ? (e1 - e0) / Math.abs(e0) : NaN;

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
console.log(`steps_per_second=${g(steps / ((t1 - t0) / 1000), 6)} mean_ncon=${g(ncon / steps, 4)} ` +
            `mean_solver_iter=${g(iters / steps, 4)} energy_drift=${drifts} mujoco_version=${mj.mj_versionString()}`);
d.delete();
m.delete();
process.exit(bad ? 3 : 0);
