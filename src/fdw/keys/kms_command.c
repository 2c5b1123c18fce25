/*-------------------------------------------------------------------------
 *
 * kms_command.c
 *		Running kms_command: the external program that wraps and unwraps
 *		keys with a KMS's master keys (a Vault or cloud KMS client).
 *
 * Like PostgreSQL's ssl_passphrase_command, the command runs through
 * /bin/sh as the server's user.  Placeholders: %o the operation ("wrap" or
 * "unwrap"), %i the master key id, %u the KMS instance URL, %k the
 * wrapped key (unwrap only), %% a percent sign; each substitution is
 * shell-quoted, for ids and URLs come from the files read.  The input
 * (the wrapped key to unwrap, or the key to wrap in base64) goes to
 * stdin, never to the command line where ps would show it; stdout is the
 * answer.  stderr goes to the server log, as for ssl_passphrase_command.
 * The child gets no descriptor of the backend but the pipes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdw/keys/keys.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "portability/instr_time.h"

int			pqfdw_kms_command_timeout = 30000;

/* A KMS answer longer than this is not a key or a wrapped key. */
#define MAX_KMS_OUTPUT 8192

static void
append_quoted(StringInfo s, const char *v)
{
	appendStringInfoChar(s, '\'');
	for (; *v; v++)
	{
		if (*v == '\'')
			appendStringInfoString(s, "'\\''");
		else
			appendStringInfoChar(s, *v);
	}
	appendStringInfoChar(s, '\'');
}

static char *
expand_command(const PqKmsCall *call)
{
	StringInfoData s;
	const char *p;

	initStringInfo(&s);
	for (p = call->command; *p; p++)
	{
		if (*p != '%' || p[1] == '\0')
		{
			appendStringInfoChar(&s, *p);
			continue;
		}
		switch (*++p)
		{
			case 'o':
				append_quoted(&s, call->wrap ? "wrap" : "unwrap");
				break;
			case 'i':
				append_quoted(&s, call->master_id);
				break;
			case 'u':
				append_quoted(&s, call->kms_url);
				break;
			case 'k':
				if (call->wrap)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("kms_command uses %%k, which has no value when a key is wrapped"),
							 errhint("Read the key to wrap from stdin; %%k names the wrapped key of an unwrap, which stdin also holds.")));
				append_quoted(&s, call->input);
				break;
			case '%':
				appendStringInfoChar(&s, '%');
				break;
			default:
				appendStringInfoChar(&s, '%');
				appendStringInfoChar(&s, *p);
				break;
		}
	}
	return s.data;
}

/*
 * Child side, forked with every signal blocked: default signal handling
 * (none of the backend's handlers), the pipes on 0 and 1, nothing else of
 * the backend's descriptors, its own process group (so that a kill reaches
 * what sh starts), then sh.
 */
static void
exec_child(const char *cmd, int in[2], int out[2])
{
	sigset_t	none;
	int			sig;

	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0)
		_exit(127);
	closefrom(STDERR_FILENO + 1);
	execl("/bin/sh", "sh", "-c", cmd, (char *) NULL);
	_exit(127);
}

static void
kill_and_reap(pid_t pid)
{
	kill(-pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/*
 * Read the child's stdout until EOF into buf (len bytes so far), within the
 * deadline; false on timeout.  A cancel kills the child.
 */
static bool
read_output(pid_t pid, int fd, char *buf, int *len, instr_time start)
{
	for (;;)
	{
		struct pollfd pfd = {fd, POLLIN, 0};
		instr_time	now;
		long		left;
		int			rc;
		ssize_t		n;

		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, start);
		left = pqfdw_kms_command_timeout - (long) INSTR_TIME_GET_MILLISEC(now);
		if (left <= 0)
			return false;
		/* killed, its stdout ends; the caller then reaps it and cancels */
		if (QueryCancelPending || ProcDiePending)
			kill(-pid, SIGKILL);
		rc = poll(&pfd, 1, (int) Min(left, 100));
		if (rc < 0 && errno != EINTR)
			return false;
		if (rc <= 0)
			continue;
		n = read(fd, buf + *len, MAX_KMS_OUTPUT + 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (*len += n) > MAX_KMS_OUTPUT)
			return true;
	}
}

/*
 * Reap the child, which closed its stdout, within the deadline (it may
 * have left something running that holds the pipe no longer).
 */
static bool
wait_exit(pid_t pid, int *status, instr_time start)
{
	for (;;)
	{
		instr_time	now;
		pid_t		r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR)
		{
			*status = -1;
			return true;
		}
		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, start);
		if ((long) INSTR_TIME_GET_MILLISEC(now) >= pqfdw_kms_command_timeout)
			return false;
		if (QueryCancelPending || ProcDiePending)
			kill(-pid, SIGKILL);
		pg_usleep(1000L);
	}
}

char *
pqfdw_run_kms_command(const PqKmsCall *call)
{
	char	   *cmd = expand_command(call);
	int			in[2];
	int			out[2];
	pid_t		pid;
	char	   *buf = palloc0(MAX_KMS_OUTPUT + 2);
	int			len = 0;
	int			status;
	bool		done;
	instr_time	start;
	size_t		input_len = strlen(call->input);
	sigset_t	all;
	sigset_t	saved;

	if (pipe(in) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create a pipe for kms_command: %m")));
	if (pipe(out) != 0)
	{
		close(in[0]);
		close(in[1]);
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create a pipe for kms_command: %m")));
	}
	fflush(NULL);
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &saved);
	pid = fork();
	if (pid == 0)
		exec_child(cmd, in, out);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (pid > 0)
		setpgid(pid, pid);
	close(in[0]);
	close(out[1]);
	if (pid < 0)
	{
		close(in[1]);
		close(out[0]);
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("could not start kms_command: %m")));
	}

	/* a key is far smaller than a pipe's buffer: this write cannot block */
	INSTR_TIME_SET_CURRENT(start);
	if (write(in[1], call->input, input_len) != (ssize_t) input_len ||
		write(in[1], "\n", 1) != 1)
	{
		/* the command need not read its input (EPIPE): its answer decides */
	}
	close(in[1]);
	done = read_output(pid, out[0], buf, &len, start) &&
		len <= MAX_KMS_OUTPUT && wait_exit(pid, &status, start);
	close(out[0]);
	if (!done && len > MAX_KMS_OUTPUT)
	{
		kill_and_reap(pid);
		explicit_bzero(buf, MAX_KMS_OUTPUT + 2);
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("kms_command answered more than %d bytes for master key \"%s\"",
						MAX_KMS_OUTPUT, call->master_id)));
	}
	if (!done)
	{
		kill_and_reap(pid);
		explicit_bzero(buf, MAX_KMS_OUTPUT + 2);
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("kms_command did not answer within %d ms for master key \"%s\"",
						pqfdw_kms_command_timeout, call->master_id),
				 errhint("The limit is parquet_fdw.kms_command_timeout.")));
	}
	if (QueryCancelPending || ProcDiePending)
	{
		explicit_bzero(buf, MAX_KMS_OUTPUT + 2);
		CHECK_FOR_INTERRUPTS();
	}
	if (status != 0)
	{
		explicit_bzero(buf, MAX_KMS_OUTPUT + 2);
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("kms_command could not %s a key with master key \"%s\"",
						call->wrap ? "wrap" : "unwrap", call->master_id),
				 errdetail_internal("%s", wait_result_to_str(status))));
	}
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		buf[--len] = '\0';
	return buf;
}
