#!/usr/bin/env node
// The AWS credential chain of the server process (src/io/aws/credentials.c)
// through test/unit/creds_cli (ASan + UBSan), against fake services on
// loopback that behave as AWS documents them:
//
//   make creds_cli && node test/js/check_credentials.mjs
//
//   IMDSv2      PUT /latest/api/token needs X-aws-ec2-metadata-token-ttl-seconds;
//               every GET needs X-aws-ec2-metadata-token with that token (401
//               without it, as with IMDSv1 turned off)
//   container   GET with the Authorization header the test set (401 else)
//   STS         POST of AssumeRoleWithWebIdentity as a form: Action, Version,
//               RoleArn, RoleSessionName, WebIdentityToken checked (STS's
//               XML errors else)
//
// Each case runs creds_cli in an environment made from nothing but PATH and
// what the case sets (the developer's own AWS variables never leak in;
// instance metadata is off unless the case points it at a fake), with
// files the test wrote.  Expected values are the ones the test put in the
// environment, files and fake services; no error message may hold any of
// the secrets.
//
// Last line: "credentials: N passed, N failed".
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { counter } from './lib/stage.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cli = path.join(root, 'test/unit/creds_cli');
const { check, summary } = counter();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw_creds_'));

// Every secret the test makes; none may appear in an error message.
const secrets = [];
const secret = (prefix, n = 30) => {
	const s = prefix + crypto.randomBytes(n).toString('base64').replace(/[=]/g, '');
	secrets.push(s);
	return s;
};
const keyId = () => `AKIA${crypto.randomBytes(8).toString('hex').toUpperCase()}`;
const creds = () => ({ key_id: keyId(), secret: secret('s/'), session_token: secret('t+', 120) });
const errors = [];

const file = (name, text) => {
	const p = path.join(dir, name);
	fs.mkdirSync(path.dirname(p), { recursive: true });
	fs.writeFileSync(p, text);
	return p;
};

// creds_cli in env (PATH and the case's variables only); resolves to its
// JSON lines and the wall time.
function run(env, args = []) {
	const full = { PATH: process.env.PATH, ...env };
	if (!('AWS_EC2_METADATA_SERVICE_ENDPOINT' in env) && !('AWS_EC2_METADATA_DISABLED' in env))
		full.AWS_EC2_METADATA_DISABLED = 'true';
	return new Promise((resolve, reject) => {
		const t0 = Date.now();
		const p = spawn(cli, args, { env: full, stdio: ['ignore', 'pipe', 'inherit'] });
		let out = '';
		p.stdout.on('data', d => out += d);
		p.on('error', reject);
		p.on('close', code => {
			if (code !== 0)
				return reject(new Error(`creds_cli exited ${code}`));
			const lines = out.trim().split('\n').filter(Boolean).map(l => JSON.parse(l));
			for (const l of lines)
				if (l.sqlstate)
					errors.push(l.message);
			resolve({ lines, r: lines[0], ms: Date.now() - t0 });
		});
	});
}

const same = (r, source, c, extra = {}) => {
	const p = [];
	if (!r || r.sqlstate)
		return [`got ${JSON.stringify(r)}`];
	if (r.source !== source)
		p.push(`source ${r.source}, not ${source}`);
	for (const k of ['key_id', 'secret', 'session_token'])
		if (r[k] !== (c[k] ?? null))
			p.push(`${k} differs`);
	for (const [k, v] of Object.entries(extra))
		if (r[k] !== v)
			p.push(`${k} ${JSON.stringify(r[k])}, not ${JSON.stringify(v)}`);
	return p;
};
const failed = (r, sqlstate, re) => {
	if (!r || r.sqlstate !== sqlstate)
		return [`expected ${sqlstate}, got ${JSON.stringify(r)}`];
	return re && !re.test(r.message) ? [`message ${JSON.stringify(r.message)} does not match ${re}`] : [];
};
const none = (r) => (r && r.sqlstate === undefined && r.source === null ? [] : [`expected no credentials, got ${JSON.stringify(r)}`]);
const iso = (unix) => new Date(unix * 1000).toISOString().replace('.000Z', 'Z');

// ---------------------------------------------------------------- services
function listen(handler) {
	const server = http.createServer(handler);
	return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const readBody = req => new Promise(resolve => {
	let b = '';
	req.on('data', d => b += d);
	req.on('end', () => resolve(b));
});

// IMDSv2
const imds = { token: secret('imds-', 20), role: 'pqfdw-instance-role', creds: creds(), expires: 0, mode: 'ok', log: [] };
const imdsServer = await listen(async (req, res) => {
	await readBody(req);
	const base = '/latest/meta-data/iam/security-credentials/';
	imds.log.push({ method: req.method, url: req.url, ttl: req.headers['x-aws-ec2-metadata-token-ttl-seconds'], token: req.headers['x-aws-ec2-metadata-token'] });
	const send = (status, body, type = 'text/plain') => {
		res.writeHead(status, { 'Content-Type': type });
		res.end(body);
	};
	if (req.url === '/latest/api/token') {
		if (req.method !== 'PUT')
			return send(405, '');
		if (imds.mode === 'disabled')
			return send(403, '');
		const ttl = Number(req.headers['x-aws-ec2-metadata-token-ttl-seconds']);
		if (!(ttl >= 1 && ttl <= 21600))
			return send(400, '');
		return send(200, imds.token);
	}
	if (req.method !== 'GET')
		return send(405, '');
	if (req.headers['x-aws-ec2-metadata-token'] !== imds.token)
		return send(401, '');
	if (req.url === base)
		return imds.mode === 'norole' ? send(404, '') : send(200, imds.role);
	if (req.url === base + imds.role) {
		const c = imds.creds;
		const doc = {
			Code: imds.mode === 'expired-code' ? 'Expired' : 'Success', LastUpdated: iso(Math.floor(Date.now() / 1000)),
			Type: 'AWS-HMAC', AccessKeyId: c.key_id, SecretAccessKey: c.secret, Token: c.session_token,
			Expiration: new Date(imds.expires * 1000).toISOString(),
		};
		let body = JSON.stringify(doc, null, 2);
		if (imds.mode === 'badjson')
			body = body.slice(0, body.length - 2);
		return send(200, body, 'application/json');
	}
	return send(404, '');
});
const imdsUrl = `http://127.0.0.1:${imdsServer.address().port}`;

// container credentials
const ctr = { auth: secret('ctr-auth-', 24), creds: creds(), expires: 2000000000, mode: 'ok', log: [] };
const ctrServer = await listen(async (req, res) => {
	await readBody(req);
	ctr.log.push({ method: req.method, url: req.url, auth: req.headers.authorization });
	if (req.method !== 'GET' || req.url !== '/v2/credentials/pod') {
		res.writeHead(404);
		return res.end();
	}
	if (req.headers.authorization !== ctr.auth) {
		res.writeHead(401, { 'Content-Type': 'application/json' });
		return res.end('{"code":"AccessDeniedException","message":"Unauthorized"}');
	}
	const c = ctr.creds;
	let body = JSON.stringify({ AccessKeyId: c.key_id, SecretAccessKey: c.secret, Token: c.session_token, AccountId: '123456789012', Expiration: iso(ctr.expires) });
	if (ctr.mode === 'badjson')
		body = body.replace(`"${c.secret}"`, `"${c.secret}\u0001"`);
	if (ctr.mode === 'number')
		body = body.replace(`"${c.key_id}"`, '12');
	res.writeHead(200, { 'Content-Type': 'application/json' });
	res.end(body);
});
const ctrUrl = `http://127.0.0.1:${ctrServer.address().port}/v2/credentials/pod`;

// STS
const sts = { token: secret('eyJ', 200), role: 'arn:aws:iam::123456789012:role/pqfdw-web', creds: creds(), expires: 1900000000, mode: 'ok', log: [] };
const stsError = (res, status, code, message) => {
	res.writeHead(status, { 'Content-Type': 'text/xml' });
	res.end(`<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ErrorResponse>`);
};
const stsServer = await listen(async (req, res) => {
	const body = await readBody(req);
	const q = Object.fromEntries(new URLSearchParams(body));
	sts.log.push({ method: req.method, url: req.url, type: req.headers['content-type'], q });
	if (req.method !== 'POST' || !/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] || ''))
		return stsError(res, 400, 'InvalidAction', 'Could not find operation for this request.');
	if (q.Action !== 'AssumeRoleWithWebIdentity' || q.Version !== '2011-06-15')
		return stsError(res, 400, 'InvalidAction', 'Could not find operation AssumeRoleWithWebIdentity for version NO_VERSION_SPECIFIED');
	if (q.WebIdentityToken !== sts.token)
		return stsError(res, 400, 'InvalidIdentityToken', 'The ID Token provided is not a valid JWT.');
	if (q.RoleArn !== sts.role)
		return stsError(res, 403, 'AccessDenied', 'Not authorized to perform sts:AssumeRoleWithWebIdentity');
	const c = sts.creds;
	const fields = [['SessionToken', c.session_token], ['SecretAccessKey', c.secret], ['Expiration', iso(sts.expires)], ['AccessKeyId', c.key_id]]
		.filter(([n]) => !(sts.mode === 'noexpiration' && n === 'Expiration'))
		.map(([n, v]) => `<${n}>${v}</${n}>`).join('\n      ');
	let xml = `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleWithWebIdentityResult>
    <SubjectFromWebIdentityToken>system:serviceaccount:db:pg</SubjectFromWebIdentityToken>
    <Audience>sts.amazonaws.com</Audience>
    <AssumedRoleUser><Arn>${sts.role}/${q.RoleSessionName}</Arn><AssumedRoleId>AROACLKWSDQRAOEXAMPLE:${q.RoleSessionName}</AssumedRoleId></AssumedRoleUser>
    <Credentials>
      ${fields}
    </Credentials>
    <Provider>oidc.eks.amazonaws.com</Provider>
  </AssumeRoleWithWebIdentityResult>
  <ResponseMetadata><RequestId>ad4156e9-bce1-11e2-82e6-6b6efEXAMPLE</RequestId></ResponseMetadata>
</AssumeRoleWithWebIdentityResponse>`;
	if (sts.mode === 'badxml')
		xml = xml.replace('</Credentials>', '</Credential>');
	res.writeHead(200, { 'Content-Type': 'text/xml' });
	res.end(xml);
});
const stsUrl = `http://127.0.0.1:${stsServer.address().port}`;

// a server that accepts connections and never answers, and a port nobody listens on
const hangSockets = new Set();
const hangServer = net.createServer(s => hangSockets.add(s));
await new Promise(resolve => hangServer.listen(0, '127.0.0.1', resolve));
const hangUrl = `http://127.0.0.1:${hangServer.address().port}`;
const closedPort = await new Promise(resolve => {
	const s = net.createServer();
	s.listen(0, '127.0.0.1', () => {
		const p = s.address().port;
		s.close(() => resolve(p));
	});
});

// ---------------------------------------------------------------- environment
{
	const c = creds();
	const { r } = await run({ AWS_ACCESS_KEY_ID: c.key_id, AWS_SECRET_ACCESS_KEY: c.secret, AWS_SESSION_TOKEN: c.session_token });
	check('environment: key, secret and session token', same(r, 'environment', c, { expires_at: 0 }));
}
{
	const c = { ...creds(), session_token: null };
	const { r } = await run({ AWS_ACCESS_KEY_ID: c.key_id, AWS_SECRET_ACCESS_KEY: c.secret, AWS_SESSION_TOKEN: '' });
	check('environment: an empty AWS_SESSION_TOKEN is none', same(r, 'environment', c));
}
{
	const { r } = await run({ AWS_ACCESS_KEY_ID: keyId() });
	check('environment: a key id without a secret is 22023', failed(r, '22023', /AWS_ACCESS_KEY_ID is set, but AWS_SECRET_ACCESS_KEY is not/));
}
{
	const { r } = await run({ AWS_ACCESS_KEY_ID: keyId(), AWS_SECRET_ACCESS_KEY: `${secret('x')} y` });
	check('environment: a secret with a blank is 22023', failed(r, '22023', /not usable.*visible ASCII/));
}
{
	const { r } = await run({});
	check('nothing configured: no credentials', none(r));
}

// ---------------------------------------------------------------- files
const fileCreds = { def: creds(), dev: creds(), conf: { ...creds(), session_token: null }, pdev: { ...creds(), session_token: null } };
const credFile = file('files/credentials', [
	'# written by the test',
	'[default]',
	`aws_access_key_id = ${fileCreds.def.key_id}`,
	`aws_secret_access_key=${fileCreds.def.secret}`,
	`aws_session_token   =   ${fileCreds.def.session_token}   # a comment after a blank`,
	'',
	'  ; an indented comment',
	'[ dev ]   ; comment after a section',
	`AWS_ACCESS_KEY_ID = ${fileCreds.dev.key_id}`,
	`aws_secret_access_key = ${fileCreds.dev.secret}`,
	`aws_session_token = ${fileCreds.dev.session_token}`,
	'[profile dev]',
	`aws_access_key_id = ${fileCreds.pdev.key_id}`,
	`aws_secret_access_key = ${fileCreds.pdev.secret}`,
	'',
].join('\r\n'));
const confFile = file('files/config', [
	'[default]',
	'region = eu-west-3',
	'[profile dev]',
	'region = ap-southeast-2',
	's3 =',
	'    addressing_style = path',
	'    max_concurrent_requests = 20',
	'[dev]',
	'region = us-west-1',
	`aws_access_key_id = ${keyId()}`,
	`aws_secret_access_key = ${secret('wrong-')}`,
	'[profile conf]',
	`aws_access_key_id = ${fileCreds.conf.key_id}`,
	`aws_secret_access_key = ${fileCreds.conf.secret}`,
	'[sso-session corp]',
	'sso_region = us-east-1',
	'',
].join('\n'));
const files = { AWS_SHARED_CREDENTIALS_FILE: credFile, AWS_CONFIG_FILE: confFile };
{
	const { r } = await run(files);
	check('files: [default] of the credentials file (comments, blanks, CRLF), region of the config file',
		same(r, 'shared credentials file', fileCreds.def, { region: 'eu-west-3', expires_at: 0 }));
}
{
	const { r } = await run({ ...files, AWS_PROFILE: 'dev' });
	check('files: AWS_PROFILE=dev is [dev] in credentials (key names in any case), [profile dev] in config (sub-settings passed over)',
		same(r, 'shared credentials file', fileCreds.dev, { region: 'ap-southeast-2' }));
}
{
	const env = creds();
	const { r } = await run({ ...files, AWS_PROFILE: 'dev', AWS_ACCESS_KEY_ID: env.key_id, AWS_SECRET_ACCESS_KEY: env.secret, AWS_SESSION_TOKEN: env.session_token });
	check('precedence: environment over files, even with AWS_PROFILE (as the SDKs)', same(r, 'environment', env));
}
{
	const env = creds();
	const { r } = await run({ ...files, AWS_ACCESS_KEY_ID: env.key_id, AWS_SECRET_ACCESS_KEY: env.secret }, ['--profile', 'dev']);
	check('files: a profile the caller names is used instead of the environment\'s keys', same(r, 'shared credentials file', fileCreds.dev, { region: 'ap-southeast-2' }));
}
{
	const { r } = await run({ ...files, AWS_PROFILE: 'conf' });
	check('files: keys in [profile conf] of the config file', same(r, 'shared config file', fileCreds.conf, { region: null }));
}
{
	const { r } = await run({ ...files, AWS_REGION: 'sa-east-1', AWS_DEFAULT_REGION: 'us-east-2' });
	check('region: AWS_REGION over AWS_DEFAULT_REGION over the config file', same(r, 'shared credentials file', fileCreds.def, { region: 'sa-east-1' }));
	const { r: r2 } = await run({ ...files, AWS_DEFAULT_REGION: 'us-east-2' });
	check('region: AWS_DEFAULT_REGION over the config file', same(r2, 'shared credentials file', fileCreds.def, { region: 'us-east-2' }));
}
{
	const { r } = await run({ ...files, AWS_PROFILE: 'nosuch' });
	check('files: a named profile in neither file is 42704 naming both files',
		failed(r, '42704', new RegExp(`AWS profile "nosuch" was not found\\|It is in neither the shared credentials file "${credFile}" nor the shared config file "${confFile}"\\.\\|The environment variable AWS_PROFILE names it\\.`)));
}
{
	// [dev]-style sections of the config file are not profiles; [profile x] of the credentials file is "profile x"
	const only = file('only_config/config', `[dev2]\naws_access_key_id = ${keyId()}\naws_secret_access_key = ${secret('wrong-')}\n`);
	const { r } = await run({ AWS_CONFIG_FILE: only, AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'absent') }, ['--profile', 'dev2']);
	check('files: [dev2] in the config file is not profile dev2 (42704, the absent file named)',
		failed(r, '42704', new RegExp(`neither the shared credentials file "${dir}/absent" \\(which does not exist\\) nor the shared config file "${only}"`)));
	const { r: r2 } = await run(files, ['--profile', 'profile dev']);
	check('files: [profile dev] of the credentials file is the profile "profile dev"', same(r2, 'shared credentials file', fileCreds.pdev));
}
{
	const home = path.join(dir, 'home');
	const c = creds();
	file('home/.aws/credentials', `[default]\naws_access_key_id=${c.key_id}\naws_secret_access_key=${c.secret}\naws_session_token=${c.session_token}\n`);
	file('home/.aws/config', '[profile default]\nregion = me-south-1\n');
	const { r } = await run({ HOME: home });
	check('files: ~/.aws/credentials and ~/.aws/config from HOME ([profile default] is default)', same(r, 'shared credentials file', c, { region: 'me-south-1' }));
	const { r: r2 } = await run({ HOME: home, AWS_SHARED_CREDENTIALS_FILE: '~/.aws/credentials', AWS_CONFIG_FILE: '~/.aws/config' });
	check('files: "~/" in AWS_SHARED_CREDENTIALS_FILE is HOME', same(r2, 'shared credentials file', c, { region: 'me-south-1' }));
	const { r: r3 } = await run({ AWS_PROFILE: 'x' });
	check('files: AWS_PROFILE without HOME or files is 42704 saying HOME is not set', failed(r3, '42704', /no shared credentials file \(HOME is not set\)/));
}
{
	const s = secret('leak-');
	const bad = file('bad/credentials', `[default]\naws_access_key_id = ${keyId()}\n${s}\n`);
	const { r } = await run({ AWS_SHARED_CREDENTIALS_FILE: bad });
	check('files: a line that is no setting is F0000 naming the file and line 3',
		failed(r, 'F0000', new RegExp(`the shared credentials file "${bad}" is malformed\\|At line 3, the line is neither a section, a setting nor a comment\\.`)));
	const long = file('bad/long', `[default]\naws_access_key_id = ${keyId()}\naws_session_token = ${'A'.repeat(16385)}\n`);
	const { r: r2 } = await run({ AWS_SHARED_CREDENTIALS_FILE: long });
	check('files: a line over 16384 bytes is F0000', failed(r2, 'F0000', /At line 3, the line is longer than 16384 bytes/));
	const twice = file('bad/twice', `[default]\naws_access_key_id = ${keyId()}\naws_secret_access_key = ${secret('a')}\n[default]\naws_secret_access_key = ${secret('b')}\n`);
	const { r: r3 } = await run({ AWS_SHARED_CREDENTIALS_FILE: twice });
	check('files: a key set twice (sections repeated) is F0000 naming lines 3 and 5', failed(r3, 'F0000', /sets aws_secret_access_key twice\|It is set at lines 3 and 5\./));
	const half = file('bad/half', `[default]\naws_secret_access_key = ${secret('h')}\n`);
	const { r: r4 } = await run({ AWS_SHARED_CREDENTIALS_FILE: half });
	check('files: a secret without a key id is F0000', failed(r4, 'F0000', /sets aws_secret_access_key but not aws_access_key_id/));
	const outside = file('bad/outside', `aws_access_key_id = ${keyId()}\n[default]\n`);
	const { r: r5 } = await run({ AWS_SHARED_CREDENTIALS_FILE: outside });
	check('files: a setting before any section is F0000', failed(r5, 'F0000', /At line 1, a setting comes before any section/));
	const nul = file('bad/nul', `[default]\naws_access_key_id = ${keyId()}\0\n`);
	const { r: r6 } = await run({ AWS_SHARED_CREDENTIALS_FILE: nul });
	check('files: a NUL byte is F0000', failed(r6, 'F0000', /holds a NUL byte/));
	const fifo = path.join(dir, 'bad/fifo');
	execFileSync('mkfifo', [fifo]);
	const { r: r7, ms } = await run({ AWS_SHARED_CREDENTIALS_FILE: fifo });
	check(`files: a FIFO in place of the file is refused at once (${ms} ms)`, failed(r7, 'F0000', /It is not a regular file/).concat(ms < 3000 ? [] : ['too slow']));
}
{
	const marker = path.join(dir, 'process_ran');
	const proc = file('process/config', `[profile p]\ncredential_process = /bin/touch ${marker}\n`);
	const { r } = await run({ AWS_CONFIG_FILE: proc, AWS_PROFILE: 'p' });
	check('files: credential_process is 0A000 and never run',
		failed(r, '0A000', /credential_process, which parquet_fdw does not run/).concat(fs.existsSync(marker) ? ['the program ran'] : []));
	const sso = file('process/sso', `[profile s]\nsso_session = corp\n[sso-session corp]\nsso_region = us-east-1\n`);
	const { r: r2 } = await run({ AWS_CONFIG_FILE: sso, AWS_PROFILE: 's' });
	check('files: an SSO profile is 0A000', failed(r2, '0A000', /IAM Identity Center \(sso_session\)/));
	const assumed = file('process/assumed', `[profile a]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = default\n[default]\naws_access_key_id = ${keyId()}\naws_secret_access_key = ${secret('q')}\n`);
	const { r: r3 } = await run({ AWS_CONFIG_FILE: assumed, AWS_PROFILE: 'a' });
	check('files: a role assumed from source_profile is 0A000, not the keys of another profile', failed(r3, '0A000', /assumes a role with source_profile/));
}

// ---------------------------------------------------------------- web identity
const tokenFile = file('wi/token', `${sts.token}\n`);
const wiEnv = { AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile, AWS_ROLE_ARN: sts.role, AWS_ENDPOINT_URL_STS: stsUrl };
{
	sts.log.length = 0;
	const { r } = await run({ ...wiEnv, AWS_ROLE_SESSION_NAME: 'pg-session-1', ...files });
	const q = sts.log[0]?.q || {};
	check('web identity: credentials from STS, before the files', same(r, 'web identity', sts.creds, { expires_at: sts.expires }));
	check('web identity: one form POST with Action, Version, RoleArn, RoleSessionName, WebIdentityToken',
		sts.log.length === 1 && sts.log[0].method === 'POST' && q.RoleSessionName === 'pg-session-1' &&
			Object.keys(q).sort().join() === 'Action,RoleArn,RoleSessionName,Version,WebIdentityToken' ? [] : [JSON.stringify(sts.log.map(l => ({ ...l, q: Object.keys(l.q) })))]);
	check('web identity: the token is not in the URL', sts.log.every(l => !l.url.includes('eyJ')) ? [] : ['token in the URL']);
}
{
	sts.log.length = 0;
	const { r } = await run({ AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile, AWS_ROLE_ARN: sts.role, AWS_ENDPOINT_URL: stsUrl });
	check('web identity: AWS_ENDPOINT_URL, default session name parquet_fdw',
		same(r, 'web identity', sts.creds).concat(sts.log[0]?.q.RoleSessionName === 'parquet_fdw' ? [] : ['session name']));
}
{
	const conf = file('wi/config', `[profile eks]\nweb_identity_token_file = ${tokenFile}\nrole_arn = ${sts.role}\nrole_session_name = from-profile\nregion = eu-north-1\n`);
	sts.log.length = 0;
	const { r } = await run({ AWS_CONFIG_FILE: conf, AWS_ENDPOINT_URL_STS: stsUrl }, ['--profile', 'eks']);
	check('web identity: web_identity_token_file and role_arn of the profile',
		same(r, 'web identity', sts.creds, { region: 'eu-north-1' }).concat(sts.log[0]?.q.RoleSessionName === 'from-profile' ? [] : ['session name']));
}
{
	const wrong = file('wi/wrong', secret('eyJwrong', 60));
	const { r } = await run({ ...wiEnv, AWS_WEB_IDENTITY_TOKEN_FILE: wrong });
	check('web identity: a token STS refuses is an ERROR with STS\'s code', failed(r, '58030', /HTTP status 400\|The store answered InvalidIdentityToken: The ID Token provided is not a valid JWT\./));
	const { r: r2 } = await run({ ...wiEnv, AWS_ROLE_ARN: 'arn:aws:iam::123456789012:role/other' });
	check('web identity: a role STS refuses is 28000', failed(r2, '28000', /HTTP status 403\|The store answered AccessDenied/));
	const { r: r3 } = await run({ ...wiEnv, AWS_WEB_IDENTITY_TOKEN_FILE: path.join(dir, 'wi/absent') });
	check('web identity: a token file that does not exist is 58P01 naming it', failed(r3, '58P01', /could not open the web identity token file ".*wi\/absent": No such file/));
	const { r: r4 } = await run({ AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile, AWS_ENDPOINT_URL_STS: stsUrl });
	check('web identity: a token file without a role is 22023', failed(r4, '22023', /no role to assume/));
	sts.mode = 'badxml';
	const { r: r5 } = await run(wiEnv);
	check('web identity: malformed XML is 58030', failed(r5, '58030', /could not read AWS credentials from "http:\/\/127\.0\.0\.1:\d+\/"\|In the answer, a closing tag does not match the open element\./));
	sts.mode = 'noexpiration';
	const { r: r6 } = await run(wiEnv);
	check('web identity: an answer without Expiration is 58030', failed(r6, '58030', /In the answer, the answer has no Expiration in AssumeRoleWithWebIdentityResult\/Credentials\./));
	sts.mode = 'ok';
	const { r: r7 } = await run({ ...wiEnv, AWS_ENDPOINT_URL_STS: 'ftp://127.0.0.1/' });
	check('web identity: an STS endpoint that is not http(s) is 22023', failed(r7, '22023', /AWS_ENDPOINT_URL_STS is not an http:\/\/ or https:\/\/ URL/));
}

// ---------------------------------------------------------------- container
const ctrEnv = { AWS_CONTAINER_CREDENTIALS_FULL_URI: ctrUrl, AWS_CONTAINER_AUTHORIZATION_TOKEN: ctr.auth };
{
	ctr.log.length = 0;
	const { r } = await run(ctrEnv);
	check('container: FULL_URI on loopback with AWS_CONTAINER_AUTHORIZATION_TOKEN',
		same(r, 'container', ctr.creds, { expires_at: ctr.expires }).concat(ctr.log.length === 1 && ctr.log[0].auth === ctr.auth ? [] : ['request']));
	const authFile = file('ctr/token', `${ctr.auth}\n`);
	const { r: r2 } = await run({ ...ctrEnv, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'not-this-one', AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: authFile });
	check('container: AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE over AWS_CONTAINER_AUTHORIZATION_TOKEN', same(r2, 'container', ctr.creds));
	const { r: r3 } = await run({ ...ctrEnv, AWS_CONTAINER_CREDENTIALS_FULL_URI: ctrUrl.replace('127.0.0.1', 'localhost') });
	check('container: localhost is allowed', same(r3, 'container', ctr.creds));
	const { r: r4 } = await run({ ...ctrEnv, AWS_CONTAINER_AUTHORIZATION_TOKEN: secret('wrong-auth-') });
	check('container: a refused token is 28000', failed(r4, '28000', /HTTP status 401/));
	ctr.log.length = 0;
	const { r: r5, ms } = await run({ ...ctrEnv, AWS_CONTAINER_CREDENTIALS_FULL_URI: `http://192.0.2.10:${ctrServer.address().port}/v2/credentials/pod` });
	check(`container: a host other than loopback and the ECS/EKS addresses is 42501 before connecting (${ms} ms)`,
		failed(r5, '42501', /names host "192\.0\.2\.10", from which credentials are not taken/).concat(ms < 1500 ? [] : ['slow']));
	const { r: r6 } = await run({ ...ctrEnv, AWS_CONTAINER_CREDENTIALS_FULL_URI: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/x' });
	check('container: the instance metadata address is not a container host (42501)', failed(r6, '42501', /169\.254\.169\.254/));
	const { r: r7 } = await run({ AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: 'v2/credentials' });
	check('container: a RELATIVE_URI without "/" is 22023', failed(r7, '22023', /does not start with "\/"/));
	ctr.mode = 'badjson';
	const { r: r8 } = await run(ctrEnv);
	check('container: a control character in a JSON string is 58030', failed(r8, '58030', /In the answer, a string holds a control character\./));
	ctr.mode = 'number';
	const { r: r9 } = await run(ctrEnv);
	check('container: an AccessKeyId that is not a string is 58030', failed(r9, '58030', /the answer's AccessKeyId is not a string/));
	ctr.mode = 'ok';
}

// ---------------------------------------------------------------- instance metadata
const imdsEnv = { AWS_EC2_METADATA_SERVICE_ENDPOINT: imdsUrl };
const now = Math.floor(Date.now() / 1000);
{
	// the fake is as strict as IMDSv2: no token, no answer
	const r = await fetch(`${imdsUrl}/latest/meta-data/iam/security-credentials/`);
	const t = await fetch(`${imdsUrl}/latest/api/token`, { method: 'PUT' });
	check('fake IMDSv2: 401 without a token, 400 for a token request without a TTL', r.status === 401 && t.status === 400 ? [] : [`${r.status} ${t.status}`]);
}
{
	imds.expires = now + 6 * 3600;
	imds.log.length = 0;
	const { r } = await run(imdsEnv);
	check('instance metadata: credentials of the instance profile\'s role', same(r, 'instance metadata', imds.creds, { expires_at: imds.expires }));
	const [put, list, get] = imds.log;
	check('instance metadata: PUT of a token for 21600 s, then both GETs with it',
		imds.log.length === 3 && put.method === 'PUT' && put.ttl === '21600' && list.token === imds.token &&
			get.url.endsWith(`/${imds.role}`) && get.token === imds.token ? [] : [JSON.stringify(imds.log)]);
}
{
	imds.log.length = 0;
	const { lines } = await run(imdsEnv, ['--repeat', '3']);
	check('cache: credentials valid for hours are asked for once in three runs',
		lines.every(l => same(l, 'instance metadata', imds.creds).length === 0) && imds.log.length === 3 ? [] : [`${imds.log.length} requests`]);
	imds.expires = now + 120;
	imds.log.length = 0;
	const { lines: l2 } = await run(imdsEnv, ['--repeat', '2']);
	check('cache: credentials expiring within 5 minutes are asked for again',
		l2.every(l => same(l, 'instance metadata', imds.creds, { expires_at: imds.expires }).length === 0) && imds.log.length === 6 ? [] : [`${imds.log.length} requests`]);
	imds.expires = now + 6 * 3600;
	const c = creds();
	const { lines: l3 } = await run({ AWS_ACCESS_KEY_ID: c.key_id, AWS_SECRET_ACCESS_KEY: c.secret }, ['--repeat', '2']);
	check('cache: a result of the environment is given again', l3.length === 2 && l3.every(l => same(l, 'environment', { ...c, session_token: null }).length === 0) ? [] : [JSON.stringify(l3)]);
}
{
	imds.mode = 'norole';
	const { r } = await run(imdsEnv);
	check('instance metadata: no role attached is no credentials', none(r));
	imds.mode = 'disabled';
	const { r: r2 } = await run(imdsEnv);
	check('instance metadata: a 403 to the token request (IMDS turned off) is no credentials', none(r2));
	imds.mode = 'badjson';
	const { r: r3 } = await run(imdsEnv);
	check('instance metadata: malformed JSON is 58030', failed(r3, '58030', /\/latest\/meta-data\/iam\/security-credentials\/pqfdw-instance-role"\|In the answer, the object is not closed\./));
	imds.mode = 'expired-code';
	const { r: r4 } = await run(imdsEnv);
	check('instance metadata: a Code other than Success is 58030', failed(r4, '58030', /the answer's Code is not Success/));
	imds.mode = 'ok';
	imds.log.length = 0;
	const { r: r5 } = await run({ ...imdsEnv, AWS_EC2_METADATA_DISABLED: 'TRUE' });
	check('instance metadata: AWS_EC2_METADATA_DISABLED=true asks nothing', none(r5).concat(imds.log.length ? ['requests made'] : []));
	const { r: r6, ms } = await run({ AWS_EC2_METADATA_SERVICE_ENDPOINT: `http://127.0.0.1:${closedPort}` });
	check(`instance metadata: an endpoint that refuses connections is no credentials, quickly (${ms} ms)`, none(r6).concat(ms < 3000 ? [] : ['slower than 3 s']));
	const { r: r7, ms: ms2 } = await run({ AWS_EC2_METADATA_SERVICE_ENDPOINT: hangUrl });
	check(`instance metadata: an endpoint that never answers is no credentials within 5 s (${ms2} ms)`, none(r7).concat(ms2 < 5000 ? [] : ['slower than 5 s']));
}

// ---------------------------------------------------------------- precedence
{
	const env = creds();
	const all = { ...files, ...ctrEnv, ...imdsEnv };
	ctr.log.length = 0;
	imds.log.length = 0;
	const { r } = await run({ ...all, AWS_ACCESS_KEY_ID: env.key_id, AWS_SECRET_ACCESS_KEY: env.secret, AWS_SESSION_TOKEN: env.session_token });
	check('precedence: environment over files, container and instance metadata', same(r, 'environment', env));
	const { r: r2 } = await run(all);
	check('precedence: files over container and instance metadata', same(r2, 'shared credentials file', fileCreds.def));
	const { r: r3 } = await run({ ...ctrEnv, ...imdsEnv });
	check('precedence: container over instance metadata', same(r3, 'container', ctr.creds));
	check('precedence: the later sources were not asked', imds.log.length === 0 && ctr.log.length === 1 ? [] : [`imds ${imds.log.length}, container ${ctr.log.length}`]);
}

// ---------------------------------------------------------------- secrets
{
	const leaks = [];
	for (const m of errors)
		for (const s of secrets)
			if (m.includes(s) || m.includes(s.slice(0, 16)))
				leaks.push(`a secret in: ${m.slice(0, 200)}`);
	check(`secrets: none in the ${errors.length} error messages`, errors.length >= 25 ? leaks : [`only ${errors.length} errors seen`]);
}

for (const s of hangSockets)
	s.destroy();
await Promise.all([imdsServer, ctrServer, stsServer, hangServer].map(s => new Promise(r => s.close(r))));
fs.rmSync(dir, { recursive: true, force: true });
process.exit(summary('credentials'));
