/*-------------------------------------------------------------------------
 *
 * profile_files.c
 *		Reading AWS's shared credentials and config files for a profile.
 *		A profile is "[NAME]" in the credentials file and "[profile NAME]"
 *		in the config file ("[default]" in both), as the AWS SDKs have it.
 *		The files hold secrets: messages name files, profiles, settings
 *		and line numbers, never a value.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/aws/profile_files.h"

const char *
pq_aws_env(const char *name)
{
	const char *v = getenv(name);

	return v && v[0] ? v : NULL;
}

char *
pq_aws_read_file(const char *path, const char *what, size_t max,
				 bool missing_ok, size_t *len)
{
	int			fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char	   *buf;
	size_t		got = 0;

	if (fd < 0)
	{
		if (errno == ENOENT && missing_ok)
			return NULL;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open the %s \"%s\": %m", what, path)));
	}
	if (fstat(fd, &st) != 0)
	{
		int			save_errno = errno;

		close(fd);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the %s \"%s\": %m", what, path)));
	}
	if (!S_ISREG(st.st_mode) || (uint64) st.st_size > max)
	{
		close(fd);
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not read the %s \"%s\"", what, path),
				 !S_ISREG(st.st_mode) ? errdetail("It is not a regular file.") :
				 errdetail("It is larger than %zu bytes.", max)));
	}
	buf = palloc(st.st_size + 1);
	while (got < (size_t) st.st_size)
	{
		ssize_t		n = read(fd, buf + got, st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
		{
			int			save_errno = errno;

			close(fd);
			errno = save_errno;
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read the %s \"%s\": %m", what, path)));
		}
		if (n == 0)
			break;				/* it shrank since fstat */
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* path, with a leading "~/" standing for HOME as the SDKs take it */
static char *
expand_home(const char *path)
{
	const char *home = pq_aws_env("HOME");

	if (path[0] == '~' && path[1] == '/' && home)
		return psprintf("%s%s", home, path + 1);
	return pstrdup(path);
}

static void
load_file(PqAwsSharedFile *f, const char *what, const char *env_name,
		  const char *default_name)
{
	const char *set = pq_aws_env(env_name);
	const char *home = pq_aws_env("HOME");
	char	   *text;
	size_t		len;
	const char *why;
	int			line;

	memset(f, 0, sizeof(*f));
	f->what = what;
	if (set)
		f->path = expand_home(set);
	else if (home)
		f->path = psprintf("%s/.aws/%s", home, default_name);
	else
		return;
	text = pq_aws_read_file(f->path, what, PQ_AWS_FILE_MAX, true, &len);

	if (text == NULL)
		return;
	f->present = true;
	if (!pq_ini_parse(text, len, &f->ini, &why, &line))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("the %s \"%s\" is malformed", what, f->path),
				 errdetail("At line %d, %s.", line, why)));
	explicit_bzero(text, len);
	pfree(text);
}

static bool
in_file(const PqAwsSharedFile *f)
{
	int			i;

	for (i = 0; f->present && i < f->nsections; i++)
		if (pq_ini_has_section(&f->ini, f->sections[i]))
			return true;
	return false;
}

/* How a file is named in the message of a missing profile. */
static char *
file_for_message(const PqAwsSharedFile *f)
{
	if (f->path == NULL)
		return psprintf(_("no %s (HOME is not set)"), f->what);
	if (!f->present)
		return psprintf(_("the %s \"%s\" (which does not exist)"), f->what,
						f->path);
	return psprintf(_("the %s \"%s\""), f->what, f->path);
}

void
pq_aws_profile_load(const char *profile, PqAwsProfile *p)
{
	const char *env_profile = pq_aws_env("AWS_PROFILE");

	memset(p, 0, sizeof(*p));
	p->named = profile != NULL || env_profile != NULL;
	p->name = profile ? profile : env_profile ? env_profile : "default";
	load_file(&p->credentials, "shared credentials file",
			  "AWS_SHARED_CREDENTIALS_FILE", "credentials");
	load_file(&p->config, "shared config file", "AWS_CONFIG_FILE", "config");

	p->credentials.sections[p->credentials.nsections++] = p->name;
	p->config.sections[p->config.nsections++] =
		psprintf("profile %s", p->name);
	/* the SDKs take the default profile with or without "profile " */
	if (strcmp(p->name, "default") == 0)
		p->config.sections[p->config.nsections++] = "default";

	if (p->named && !in_file(&p->credentials) && !in_file(&p->config))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("AWS profile \"%s\" was not found", p->name),
				 errdetail("It is in neither %s nor %s.",
						   file_for_message(&p->credentials),
						   file_for_message(&p->config)),
				 profile == NULL ?
				 errhint("The environment variable AWS_PROFILE names it.") : 0));
}

const char *
pq_aws_profile_value(const PqAwsProfile *p, const PqAwsSharedFile *f,
					 const char *key)
{
	const PqIniEntry *found = NULL;
	int			i;

	if (!f->present)
		return NULL;
	for (i = 0; i < f->nsections; i++)
	{
		const PqIniEntry *again;
		const PqIniEntry *e = pq_ini_lookup(&f->ini, f->sections[i], key,
											&again);

		if (e && (found || again))
			ereport(ERROR,
					(errcode(ERRCODE_CONFIG_FILE_ERROR),
					 errmsg("profile \"%s\" of the %s \"%s\" sets %s twice",
							p->name, f->what, f->path, key),
					 errdetail("It is set at lines %d and %d.",
							   found ? found->line : e->line,
							   found ? e->line : again->line)));
		if (e)
			found = e;
	}
	if (found && found->continued)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("profile \"%s\" of the %s \"%s\" sets %s over several lines",
						p->name, f->what, f->path, key),
				 errdetail("It is set at line %d, and indented lines follow.",
						   found->line)));
	return found && found->value[0] ? found->value : NULL;
}

const char *
pq_aws_profile_setting(const PqAwsProfile *p, const char *key)
{
	const char *v = pq_aws_profile_value(p, &p->credentials, key);

	return v ? v : pq_aws_profile_value(p, &p->config, key);
}
