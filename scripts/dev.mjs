// `npm run dev`: the server with reload (tsx watch) and Vite's dev server with hot reload, side by side.
import { spawn } from 'node:child_process';

const children = [
  spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'src/server/main.ts'],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        WEB_DIR: process.env.WEB_DIR ?? 'dist/web',
        // Pages come from Vite's server, so that is the origin writes come from (and mail links go to).
        PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173',
      },
    },
  ),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) =>
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  }),
);
