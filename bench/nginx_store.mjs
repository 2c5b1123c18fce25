// The fast store of bench/object_store.mjs: Debian's nginx serving a
// directory as path-style S3 objects (anonymous GET with ranges and
// If-Match, HEAD), one port per added latency.  A request to a port with a
// latency first waits that long in an auth_request subrequest answered by
// echo_sleep, then the file goes out with sendfile: the store costs almost
// no CPU, so on a two-CPU machine the benchmark measures the reader, not
// the emulator (s3rver serves 60-100 MB/s, a Node proxy about 400 MB/s on
// the CPU the backend needs).  Requests and bytes sent are counted from
// each port's access log.  startNginxWriteStore() answers writes instead.
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

// a latency: every request first waits in a subrequest answered by echo_sleep
const delayAuth = (ms) => (ms > 0 ? 'auth_request /.delay;' : '');
const delayLocation = (ms) => (ms > 0 ? `location = /.delay { internal; echo_sleep ${ms / 1000}; echo ok; }` : '');

// root: the directory whose subdirectories are buckets; dir: where the
// configuration and logs go; latencies: added milliseconds, one port each.
export async function startNginxStore(root, dir, latencies) {
  return startNginx(dir, latencies, (ms) => `root ${root};
    location / { ${delayAuth(ms)} }
    ${delayLocation(ms)}`, '');
}

// What bench/object_write.mjs writes to: path-style S3 writes answered as
// S3 answers them (CreateMultipartUpload's UploadId, UploadPart's ETag,
// CompleteMultipartUpload's result, PUT), the bodies read in full and
// dropped.  Signatures are not checked: the tests' front does that.  The
// access log also has each request's length (the bytes received).
export async function startNginxWriteStore(dir, latencies) {
  return startNginx(dir, latencies, (ms) => `client_max_body_size 0;
    client_body_buffer_size 16m;
    location / {
      ${delayAuth(ms)}
      echo_read_request_body;
      add_header ETag "\\"part-$arg_partNumber\\"" always;
      echo -n $s3_answer;
    }
    ${delayLocation(ms)}`,
  `  map "$request_method $args" $s3_answer {
    "~^POST uploads(=|&|$)" "<?xml version=\\"1.0\\" encoding=\\"UTF-8\\"?><InitiateMultipartUploadResult><Bucket>bench</Bucket><Key>k</Key><UploadId>bench-upload</UploadId></InitiateMultipartUploadResult>";
    "~^POST uploadId=" "<?xml version=\\"1.0\\" encoding=\\"UTF-8\\"?><CompleteMultipartUploadResult><Bucket>bench</Bucket><Key>k</Key><ETag>\\"bench-2\\"</ETag></CompleteMultipartUploadResult>";
    default "";
  }
`);
}

async function startNginx(dir, latencies, serverBody, httpExtra) {
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  const servers = [];
  for (const ms of latencies) {
    const port = await freePort();
    const log = path.join(dir, `access-${ms}.log`);
    fs.writeFileSync(log, '');
    servers.push({ ms, port, log, conf: `  server {
    listen 127.0.0.1:${port};
    access_log ${log} bench;
    ${serverBody(ms)}
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
  log_format bench '$request_method $status $bytes_sent $request_length $request_uri';
${httpExtra}${servers.map((s) => s.conf).join('\n')}
}
`);
  const nginx = spawn('nginx', ['-c', conf, '-e', path.join(dir, 'error.log')], { stdio: 'inherit' });
  for (const s of servers) await listening(s.port, nginx);
  const byMs = new Map(servers.map((s) => [s.ms, s]));
  const lines = (ms) => fs.readFileSync(byMs.get(ms).log, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' '));
  return {
    endpoint: (ms) => `http://127.0.0.1:${byMs.get(ms).port}`,
    // requests, bytes answered and bytes received so far on the port of ms
    stats: (ms) => {
      const ls = lines(ms);
      return {
        requests: ls.length,
        bytes: ls.reduce((a, l) => a + Number(l[2]), 0),
        received: ls.reduce((a, l) => a + Number(l[3]), 0),
      };
    },
    // the requests so far on the port of ms: [method, status, uri]
    requests: (ms) => lines(ms).map((l) => [l[0], Number(l[1]), l[4]]),
    close: () => new Promise((r) => {
      if (nginx.exitCode !== null) return r();
      nginx.on('exit', r);
      nginx.kill('SIGQUIT');
    }),
  };
}
