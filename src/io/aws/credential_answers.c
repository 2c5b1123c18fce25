/*-------------------------------------------------------------------------
 *
 * credential_answers.c
 *		Reading the answers of credential services: STS's XML (over
 *		xml_scan.c), the JSON of container credentials and instance
 *		metadata (over json_scan.c), and their expiration times.  Pure
 *		functions over bytes from the network, bounded and fuzzed; they
 *		say what is wrong without quoting the answer, which holds secrets.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/aws/credential_answers.h"
#include "io/common/json_scan.h"
#include "io/common/xml_scan.h"
#include "lib/stringinfo.h"

/* n digits at *p as a number; false unless they are all digits */
static bool
digits(const char **p, int n, int *out)
{
	int			i;

	*out = 0;
	for (i = 0; i < n; i++)
	{
		char		c = (*p)[i];

		if (c < '0' || c > '9')
			return false;
		*out = *out * 10 + (c - '0');
	}
	*p += n;
	return true;
}

/* One of chars at *p, passed over; false when another byte is there */
static bool
expect(const char **p, const char *chars)
{
	if (**p == '\0' || strchr(chars, **p) == NULL)
		return false;
	(*p)++;
	return true;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64
days_from_civil(int y, int m, int d)
{
	int			era;
	int			yoe;
	int			doy;
	int			doe;

	y -= m <= 2;
	era = y / 400;				/* y >= 1969: no negative years */
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (int64) era * 146097 + doe - 719468;
}

bool
pq_aws_parse_time(const char *s, int64 *out, const char **why)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	const char *p = s;
	int			y,
				mo,
				d,
				h,
				mi,
				sec;
	int			offset = 0;
	int			last;

	*why = "the expiration time is not an ISO 8601 UTC time";
	if (strnlen(s, 64) >= 64 ||
		!digits(&p, 4, &y) || !expect(&p, "-") || !digits(&p, 2, &mo) ||
		!expect(&p, "-") || !digits(&p, 2, &d) || !expect(&p, "Tt") ||
		!digits(&p, 2, &h) || !expect(&p, ":") || !digits(&p, 2, &mi) ||
		!expect(&p, ":") || !digits(&p, 2, &sec))
		return false;
	if (*p == '.')
	{
		/* a fraction of a second: at least one digit, then dropped */
		p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'Z' || *p == 'z')
		p++;
	else if (*p == '+' || *p == '-')
	{
		int			sign = *p++ == '-' ? -1 : 1;
		int			oh,
					om;

		if (!digits(&p, 2, &oh))
			return false;
		if (*p == ':')
			p++;
		if (!digits(&p, 2, &om) || oh > 23 || om > 59)
			return false;
		offset = sign * (oh * 3600 + om * 60);
	}
	else
		return false;
	if (*p != '\0')
		return false;
	if (y < 1970 || mo < 1 || mo > 12 || h > 23 || mi > 59 || sec > 60)
		return false;
	last = mdays[mo - 1] +
		(mo == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
	if (d < 1 || d > last)
		return false;
	/* a leap second is the last second of its minute here */
	*out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
		Min(sec, 59) - offset;
	*why = NULL;
	return true;
}

/* The fields of Credentials in an STS answer, in PqAwsCredentials order. */
static const char *const sts_fields[] = {
	"AccessKeyId", "SecretAccessKey", "SessionToken", "Expiration"
};

bool
pq_aws_parse_sts_answer(const char *body, size_t len, PqAwsCredentials *out,
						const char **why)
{
	static const char *const path[] = {
		"AssumeRoleWithWebIdentityResponse",
		"AssumeRoleWithWebIdentityResult",
		"Credentials"
	};
	char	   *values[lengthof(sts_fields)] = {0};
	StringInfoData text;
	PqXmlScanner s;
	PqXmlToken	t;
	int			field = -1;
	int			i;

	memset(out, 0, sizeof(*out));
	initStringInfo(&text);
	pq_xml_scan_init(&s, body, len, PQ_AWS_MAX_TOKEN);
	while ((t = pq_xml_scan_next(&s)) != PQ_XML_END)
	{
		if (t == PQ_XML_BAD)
		{
			*why = s.error;
			return false;
		}
		if (t == PQ_XML_OPEN)
		{
			if (s.depth == 1 && strcmp(s.tag, path[0]) != 0)
			{
				*why = "the answer is not an AssumeRoleWithWebIdentityResponse";
				return false;
			}
			if (field >= 0)
			{
				*why = "a field of Credentials holds an element";
				return false;
			}
			if (s.depth != 4 || strcmp(s.stack[1], path[1]) != 0 ||
				strcmp(s.stack[2], path[2]) != 0)
				continue;
			for (i = 0; i < lengthof(sts_fields); i++)
				if (strcmp(s.tag, sts_fields[i]) == 0)
					field = i;
			if (field >= 0 && values[field] != NULL)
			{
				*why = "a field of Credentials is given twice";
				return false;
			}
			resetStringInfo(&text);
		}
		else if (t == PQ_XML_TEXT && field >= 0)
		{
			appendBinaryStringInfo(&text, s.text.data, s.text.len);
			if ((size_t) text.len > PQ_AWS_MAX_TOKEN)
			{
				*why = "a field of Credentials is longer than allowed";
				return false;
			}
		}
		else if (t == PQ_XML_CLOSE && field >= 0)
		{
			values[field] = pstrdup(text.data);
			field = -1;
		}
	}
	for (i = 0; i < lengthof(sts_fields); i++)
		if (values[i] == NULL)
		{
			*why = psprintf("the answer has no %s in AssumeRoleWithWebIdentityResult/Credentials",
							sts_fields[i]);
			return false;
		}
	out->key_id = values[0];
	out->secret = values[1];
	out->session_token = values[2];
	if (!pq_aws_parse_time(values[3], &out->expires_at, why))
		return false;
	return (*why = pq_aws_credentials_problem(out)) == NULL;
}

/* A member that must be a string if present; false when it is not. */
static bool
json_string(const PqJsonObject *o, const char *name, bool required,
			char **out, const char **why)
{
	const PqJsonMember *m = pq_json_member(o, name);

	*out = NULL;
	if (m == NULL || (m->kind == PQ_JSON_NULL && !required))
	{
		if (required)
			*why = psprintf("the answer has no %s", name);
		return !required;
	}
	if (m->kind != PQ_JSON_STRING)
	{
		*why = psprintf("the answer's %s is not a string", name);
		return false;
	}
	*out = m->value;
	return true;
}

bool
pq_aws_parse_json_answer(const char *body, size_t len, PqAwsCredentials *out,
						 const char **why)
{
	PqJsonObject o;
	char	   *code;
	char	   *expiration;

	memset(out, 0, sizeof(*out));
	if (!pq_json_parse_object(body, len, PQ_AWS_MAX_TOKEN, &o, why))
		return false;
	if (!json_string(&o, "Code", false, &code, why))
		return false;
	if (code && strcmp(code, "Success") != 0)
	{
		*why = "the answer's Code is not Success";
		return false;
	}
	if (!json_string(&o, "AccessKeyId", true, &out->key_id, why) ||
		!json_string(&o, "SecretAccessKey", true, &out->secret, why) ||
		!json_string(&o, "Token", false, &out->session_token, why) ||
		!json_string(&o, "Expiration", false, &expiration, why))
		return false;
	/* an empty Token is no token */
	if (out->session_token && out->session_token[0] == '\0')
		out->session_token = NULL;
	if (expiration && !pq_aws_parse_time(expiration, &out->expires_at, why))
		return false;
	return (*why = pq_aws_credentials_problem(out)) == NULL;
}

/* Why v cannot be sent in a header or signed, or NULL. */
static const char *
value_problem(const char *v, size_t max, const char *what)
{
	size_t		n = strlen(v);
	size_t		i;

	if (n == 0)
		return psprintf("the %s is empty", what);
	if (n > max)
		return psprintf("the %s is longer than %zu bytes", what, max);
	for (i = 0; i < n; i++)
		if ((unsigned char) v[i] <= 0x20 || (unsigned char) v[i] >= 0x7f)
			return psprintf("the %s holds a character other than visible ASCII",
							what);
	return NULL;
}

const char *
pq_aws_credentials_problem(const PqAwsCredentials *c)
{
	const char *p;

	if ((p = value_problem(c->key_id, PQ_AWS_MAX_KEY, "access key id")) ||
		(p = value_problem(c->secret, PQ_AWS_MAX_KEY, "secret access key")))
		return p;
	if (c->session_token &&
		(p = value_problem(c->session_token, PQ_AWS_MAX_TOKEN, "session token")))
		return p;
	return NULL;
}
