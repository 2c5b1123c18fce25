// The fast store of bench/object_store.mjs: Debian's nginx serving a
// directory as path-style S3 objects (anonymous GET with ranges and
// If-Match, HEAD), one port per added latency.  A request to a port with a
// latency first waits that long in an auth_request subrequest answered by
// echo_sleep, then the file goes out with sendfile: the store costs almost
// no CPU, so on a two-CPU machine the benchmark measures the reader, not
// the emulator (s3rver serves 60-100 MB/s, a Node proxy about 400 MB/s on
// the CPU the backend needs).  Requests and bytes sent are counted from
// each port's access log.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';

const ECHO_MODULE = '/usr/lib/nginx/modules/ngx_http_echo_module.so';

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

async function listening(port, nginx) {
  for (let i = 0; i < 100; i++) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}`);
    const ok = await new Promise((r) => {
      const c = net.connect(port, '127.0.0.1', () => { c.destroy(); r(true); });
      c.on('error', () => r(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx is not listening on ${port}`);
}

// root: the directory whose subdirectories are buckets; dir: where the
// configuration and logs go; latencies: added milliseconds, one port each.
export async function startNginxStore(root, dir, latencies) {
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  const servers = [];
  for (const ms of latencies) {
    const port = await freePort();
    const log = path.join(dir, `access-${ms}.log`);
    fs.writeFileSync(log, '');
    const delay = ms > 0
      ? `location / { auth_request /.delay; }\n    location = /.delay { internal; echo_sleep ${ms / 1000}; echo ok; }`
      : '';
    servers.push({ ms, port, log, conf: `  server {
    listen 127.0.0.1:${port};
    access_log ${log} bench;
    root ${root};
    ${delay}
  }` });
  }
  const tmp = path.join(dir, 'tmp');
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, `load_module ${ECHO_MODULE};
daemon off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')};
events { worker_connections 1024; }
http {
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${tmp};
  proxy_temp_path ${tmp};
  fastcgi_temp_path ${tmp};
  uwsgi_temp_path ${tmp};
  scgi_temp_path ${tmp};
  log_format bench '$request_method $status $bytes_sent';
${servers.map((s) => s.conf).join('\n')}
}
`);
  const nginx = spawn('nginx', ['-c', conf, '-e', path.join(dir, 'error.log')], { stdio: 'inherit' });
  for (const s of servers) await listening(s.port, nginx);
  const byMs = new Map(servers.map((s) => [s.ms, s]));
  return {
    endpoint: (ms) => `http://127.0.0.1:${byMs.get(ms).port}`,
    // requests and bytes answered so far on the port of ms
    stats: (ms) => {
      const lines = fs.readFileSync(byMs.get(ms).log, 'utf8').split('\n').filter(Boolean);
      return { requests: lines.length, bytes: lines.reduce((a, l) => a + Number(l.split(' ')[2]), 0) };
    },
    close: () => new Promise((r) => {
      if (nginx.exitCode !== null) return r();
      nginx.on('exit', r);
      nginx.kill('SIGQUIT');
    }),
  };
}
