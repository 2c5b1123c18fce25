/*-------------------------------------------------------------------------
 *
 * kms_command.c
 *		Running kms_command: the external program that wraps and unwraps
 *		keys with a KMS's master keys (a Vault or cloud KMS client).
 *
 * Like PostgreSQL's ssl_passphrase_command, the command runs through
 * /bin/sh as the server's user.  Placeholders: %o the operation ("wrap" or
 * "unwrap"), %i the master key id, %u the KMS instance URL, %k the
 * wrapped key (unwrap only), %% a percent sign.  Ids, URLs and wrapped
 * keys come from the files read, as untrusted as SQL: each value is
 * single-quoted and may hold only letters, digits and the characters of
 * PQFDW_KMS_SAFE_PUNCTUATION, and a template that quotes a placeholder
 * itself is refused.  The input
 * (the wrapped key to unwrap, or the key to wrap in base64) goes to
 * stdin, never to the command line where ps would show it; stdout is the
 * answer.  stderr goes to the server log, as for ssl_passphrase_command.
 * The child gets no descriptor of the backend but the pipes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdw/keys/keys.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/guc.h"

int			pqfdw_kms_command_timeout = 30000;

/* A KMS answer longer than this is not a key or a wrapped key. */
#define MAX_KMS_OUTPUT 8192

bool
pqfdw_kms_value_safe(const char *v)
{
	for (; *v; v++)
		if (!(isascii((unsigned char) *v) && isalnum((unsigned char) *v)) &&
			strchr(PQFDW_KMS_SAFE_PUNCTUATION, *v) == NULL)
			return false;
	return true;
}

static bool
printable(const char *v)
{
	for (; *v; v++)
		if (*v < 0x20 || *v > 0x7e)
			return false;
	return true;
}

/*
 * The messages for a value that cannot be substituted for a placeholder:
 * whole sentences, with the value (when printable) and without.
 */
typedef struct PlaceholderMessages
{
	char		placeholder;
	const char *with_value;
	const char *without_value;
} PlaceholderMessages;

static const PlaceholderMessages placeholder_messages[] = {
	{'o', gettext_noop("the operation \"%s\" cannot be passed to kms_command as %%o"),
	gettext_noop("the operation cannot be passed to kms_command as %%%c")},
	{'i', gettext_noop("master key id \"%s\" cannot be passed to kms_command as %%i"),
	gettext_noop("the master key id cannot be passed to kms_command as %%%c")},
	{'u', gettext_noop("KMS instance URL \"%s\" cannot be passed to kms_command as %%u"),
	gettext_noop("the KMS instance URL cannot be passed to kms_command as %%%c")},
	{'k', gettext_noop("the wrapped key \"%s\" cannot be passed to kms_command as %%k"),
	gettext_noop("the wrapped key cannot be passed to kms_command as %%%c")},
};

/*
 * Each value is single-quoted, and may hold only safe characters: a value
 * comes from SQL or from the Parquet file read, and the template's own
 * quoting (which pqfdw_check_kms_command() restricts) must not matter.
 */
static void
append_value(StringInfo s, const PqKmsCall *call, char placeholder,
			 const char *v)
{
	const PlaceholderMessages *m = NULL;
	int			i;

	if (!pqfdw_kms_value_safe(v))
	{
		for (i = 0; i < lengthof(placeholder_messages); i++)
			if (placeholder_messages[i].placeholder == placeholder)
				m = &placeholder_messages[i];
		Assert(m != NULL);
		ereport(ERROR,
				(errcode(call->wrap ? ERRCODE_INVALID_PARAMETER_VALUE :
						 ERRCODE_DATA_CORRUPTED),
				 printable(v) ?
				 errmsg(m->with_value, v) : errmsg(m->without_value, placeholder),
				 errdetail("Values substituted into kms_command consist of letters, digits and the characters %s only.",
						   PQFDW_KMS_SAFE_PUNCTUATION),
				 call->wrap ?
				 errhint("The value comes from the statement's options.") :
				 errhint("The value comes from the key material of the file read.")));
	}
	appendStringInfoChar(s, '\'');
	appendStringInfoString(s, v);
	appendStringInfoChar(s, '\'');
}

/* Where the template has a placeholder the shell would see quoted, or NULL. */
static const char *
quoted_placeholder(const char *command)
{
	const char *p;
	char		quote = '\0';

	for (p = command; *p; p++)
	{
		if (quote == '\'')
		{
			if (*p == '\'')
				quote = '\0';
			else if (*p == '%' && p[1] == '%')
				p++;
			else if (*p == '%' && strchr("oiuk", p[1]) != NULL)
				return p;
			continue;
		}
		if (*p == '\\' && p[1] != '\0')
		{
			/* an escaped character; a placeholder right after it is quoted */
			if (p[1] == '%')
				return p;
			p++;
			continue;
		}
		if (*p == '"')
			quote = quote == '"' ? '\0' : '"';
		else if (*p == '\'' && quote == '\0')
			quote = '\'';
		else if (*p == '%' && p[1] == '%')
			p++;
		else if (*p == '%' && strchr("oiuk", p[1]) != NULL && quote != '\0')
			return p;
	}
	return NULL;
}

bool
pqfdw_kms_command_check_hook(char **newval, void **extra, GucSource source)
{
	if (*newval == NULL || quoted_placeholder(*newval) == NULL)
		return true;
	GUC_check_errdetail("A placeholder is inside quotes or after a backslash; parquet_fdw quotes every value it substitutes.");
	GUC_check_errhint("Write %%o, %%i, %%u and %%k unquoted, for example \"/path/to/kms-client %%o %%i %%u\".");
	return false;
}

void
pqfdw_check_kms_command(const char *command)
{
	if (quoted_placeholder(command) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("kms_command \"%s\" has a placeholder inside quotes or after a backslash",
						command),
				 errdetail("parquet_fdw quotes every value it substitutes; quoted again, the shell would interpret it."),
				 errhint("Write %%o, %%i, %%u and %%k unquoted, for example \"/path/to/kms-client %%o %%i %%u\".")));
}

static char *
expand_command(const PqKmsCall *call)
{
	StringInfoData s;
	const char *p;

	pqfdw_check_kms_command(call->command);
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
				append_value(&s, call, 'o', call->wrap ? "wrap" : "unwrap");
				break;
			case 'i':
				append_value(&s, call, 'i', call->master_id);
				break;
			case 'u':
				append_value(&s, call, 'u', call->kms_url);
				break;
			case 'k':
				if (call->wrap)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("kms_command uses %%k, which has no value when a key is wrapped"),
							 errhint("Read the key to wrap from stdin; %%k names the wrapped key of an unwrap, which stdin also holds.")));
				append_value(&s, call, 'k', call->input);
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

/* Milliseconds left of the command's time since start (<= 0: none). */
static long
time_left(instr_time start)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, start);
	return pqfdw_kms_command_timeout - (long) INSTR_TIME_GET_MILLISEC(now);
}

/*
 * Write the input and a newline to the child's stdin (non-blocking), within
 * the deadline; false on timeout.  A command that does not read its input
 * may exit (EPIPE) or not: only the timeout or a cancel ends the wait, as
 * while it answers.  A cancel kills the child.
 */
static bool
write_input(pid_t pid, int fd, const char *input, size_t len, instr_time start)
{
	StringInfoData data;
	size_t		done = 0;
	bool		ok = true;

	initStringInfo(&data);
	appendBinaryStringInfo(&data, input, len);
	appendStringInfoChar(&data, '\n');
	while (done < (size_t) data.len)
	{
		struct pollfd pfd = {fd, POLLOUT, 0};
		long		left = time_left(start);
		int			rc;
		ssize_t		n;

		if (left <= 0)
		{
			ok = false;
			break;
		}
		if (QueryCancelPending || ProcDiePending)
		{
			kill(-pid, SIGKILL);
			break;
		}
		rc = poll(&pfd, 1, (int) Min(left, 100));
		if (rc < 0 && errno != EINTR)
			break;
		if (rc <= 0)
			continue;
		n = write(fd, data.data + done, data.len - done);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			break;				/* EPIPE: the answer decides */
		done += n;
	}
	explicit_bzero(data.data, data.len);
	pfree(data.data);
	return ok;
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
		long		left = time_left(start);
		int			rc;
		ssize_t		n;

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
		pid_t		r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR)
		{
			*status = -1;
			return true;
		}
		if (time_left(start) <= 0)
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

	/*
	 * The input may not fit the pipe's buffer (a wrapped key from a file is
	 * up to 64 kB, and a busy system's pipes hold one page): a write must
	 * never wait beyond the deadline or a cancel.
	 */
	if (fcntl(in[1], F_SETFL, O_NONBLOCK) != 0)
	{
		int			save_errno = errno;

		close(in[1]);
		close(out[0]);
		kill_and_reap(pid);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not make the pipe to kms_command non-blocking: %m")));
	}
	INSTR_TIME_SET_CURRENT(start);
	done = write_input(pid, in[1], call->input, input_len, start);
	close(in[1]);
	done = done && read_output(pid, out[0], buf, &len, start) &&
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
