// `npm start`: the Electron app when its binary is installed, otherwise the browser host (opening the
// console in the system browser when there is a display, and printing its URL in any case).
// `npm run dev`: the same choice, with the Vite dev server and hot reload for the renderer.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { electronBinary } from './electron-binary.mjs';
import { BROWSER_HOST_NODE, DESKTOP_NODE, nodeVersionProblem } from './node-version.mjs';

const mode = process.argv[2] === 'dev' ? 'dev' : 'start';
const passthrough = process.argv.slice(3);

const children = [];
function run(command, args, env = {}) {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  children.push(child);
  child.on('exit', (code) => {
    for (const other of children) if (other !== child) other.kill('SIGTERM');
    process.exit(code ?? 0);
  });
  return child;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill('SIGTERM');
  });
}

const tooOld = nodeVersionProblem('browser host', BROWSER_HOST_NODE);
if (tooOld) {
  console.error(tooOld);
  process.exit(1);
}
// Electron 45's tooling needs a newer Node than the browser host: below it, say so and use the browser.
const desktopTooOld = nodeVersionProblem('desktop app (Electron 45)', DESKTOP_NODE);
const electron = desktopTooOld ? null : electronBinary();
if (desktopTooOld && electronBinary()) console.log(`${desktopTooOld} Using the browser host meanwhile.`);
if (mode === 'start') {
  if (electron) {
    run(electron, ['.', ...passthrough]);
  } else {
    console.log('Electron is not installed here; running the console in your browser instead.');
    run(process.execPath, ['out/main/web.cjs', ...passthrough]);
  }
} else {
  const vite = join('node_modules', '.bin', 'vite');
  run(vite, ['--logLevel', 'warn']);
  run(process.execPath, [
    'out/main/web.cjs',
    '--port',
    '5174',
    '--no-open',
    '--dev-origin',
    'http://127.0.0.1:5173',
    ...passthrough,
  ]);
  if (electron) run(electron, ['.'], { ELECTRON_RENDERER_URL: 'http://127.0.0.1:5173/' });
  else
    console.log(
      'Dev server: open http://127.0.0.1:5173/ followed by the #secret=… part of the "Switchyard ready at" URL.',
    );
}
