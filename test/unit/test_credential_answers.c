/*
 * test_credential_answers.c
 *		The answers of credential services as src/io/aws/credential_answers.c
 *		reads them: the examples of AWS's documentation (STS's
 *		AssumeRoleWithWebIdentity response, the instance metadata and ECS
 *		task credential documents), times worked out with Python's
 *		calendar.timegm, and the answers that must be refused.
 */
#include "postgres.h"

#include "io/aws/credential_answers.h"
#include "unit_test.h"

static const char sts_example[] =
"<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
"  <AssumeRoleWithWebIdentityResult>\n"
"    <SubjectFromWebIdentityToken>amzn1.account.AF6RHO7KZU5XRVQJGXK6HB56KR2A</SubjectFromWebIdentityToken>\n"
"    <Audience>client.5498841531868486423.1548@apps.example.com</Audience>\n"
"    <AssumedRoleUser>\n"
"      <Arn>arn:aws:sts::123456789012:assumed-role/FederatedWebIdentityRole/app1</Arn>\n"
"      <AssumedRoleId>AROACLKWSDQRAOEXAMPLE:app1</AssumedRoleId>\n"
"    </AssumedRoleUser>\n"
"    <Credentials>\n"
"      <SessionToken>AQoDYXdzEE0a8ANXXXXXXXXNO1ewxE5TijQyp+IEXAMPLE</SessionToken>\n"
"      <SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY</SecretAccessKey>\n"
"      <Expiration>2014-10-24T23:00:23Z</Expiration>\n"
"      <AccessKeyId>ASgeIAIOSFODNN7EXAMPLE</AccessKeyId>\n"
"    </Credentials>\n"
"    <SourceIdentity>SourceIdentityValue</SourceIdentity>\n"
"    <Provider>www.amazon.com</Provider>\n"
"  </AssumeRoleWithWebIdentityResult>\n"
"  <ResponseMetadata>\n"
"    <RequestId>ad4156e9-bce1-11e2-82e6-6b6efEXAMPLE</RequestId>\n"
"  </ResponseMetadata>\n"
"</AssumeRoleWithWebIdentityResponse>\n";

static bool
sts(const char *text, PqAwsCredentials *c, const char **why)
{
	size_t		n = strlen(text);

	return pq_aws_parse_sts_answer((const char *) ut_exact_copy(text, n), n, c, why);
}

static bool
json(const char *text, PqAwsCredentials *c, const char **why)
{
	size_t		n = strlen(text);

	return pq_aws_parse_json_answer((const char *) ut_exact_copy(text, n), n, c, why);
}

/* text with its first from replaced by to */
static char *
replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	Assert(at != NULL);
	return psprintf("%.*s%s%s", (int) (at - text), text, to, at + strlen(from));
}

static void
test_times(void)
{
	static const struct
	{
		const char *s;
		int64		secs;
	}			good[] = {
		{"1970-01-01T00:00:00Z", 0},
		{"2014-10-24T23:00:23Z", 1414191623},
		{"2017-05-17T15:09:54Z", 1495033794},
		{"2019-11-09T13:34:41.123Z", 1573306481},
		{"2024-02-29T23:59:59z", 1709251199},
		{"2000-03-01t00:00:00Z", 951868800},
		{"2099-12-31T23:59:59Z", 4102444799},
		{"2019-11-09T15:34:41+02:00", 1573306481},
		{"2019-11-09T08:04:41-0530", 1573306481},
		{"2019-11-09T13:34:60Z", 1573306499},
	};
	static const char *const bad[] = {
		"", "2014-10-24", "2014-10-24T23:00:23", "2014-10-24 23:00:23Z",
		"2014-10-24T23:00Z", "14-10-24T23:00:23Z", "2014-13-01T00:00:00Z",
		"2014-00-01T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
		"2014-04-31T00:00:00Z", "2014-10-24T24:00:00Z", "2014-10-24T23:60:00Z",
		"2014-10-24T23:00:61Z", "2014-10-24T23:00:23.Z", "2014-10-24T23:00:23Zx",
		"2014-10-24T23:00:23+2400", "1969-12-31T23:59:59Z", "+014-10-24T23:00:23Z",
	};
	int			i;

	for (i = 0; i < lengthof(good); i++)
	{
		int64		t = -1;
		const char *why;

		if (!pq_aws_parse_time(good[i].s, &t, &why) || t != good[i].secs)
		{
			ut_fail(__FILE__, __LINE__, good[i].s);
			return;
		}
	}
	for (i = 0; i < lengthof(bad); i++)
	{
		int64		t;
		const char *why = NULL;

		if (pq_aws_parse_time(bad[i], &t, &why) || why == NULL)
		{
			ut_fail(__FILE__, __LINE__, bad[i]);
			return;
		}
	}
}

static void
test_sts(void)
{
	PqAwsCredentials c;
	const char *why;

	CHECK(sts(sts_example, &c, &why));
	CHECK(strcmp(c.key_id, "ASgeIAIOSFODNN7EXAMPLE") == 0);
	CHECK(strcmp(c.secret, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY") == 0);
	CHECK(strcmp(c.session_token, "AQoDYXdzEE0a8ANXXXXXXXXNO1ewxE5TijQyp+IEXAMPLE") == 0);
	CHECK_EQ_INT(c.expires_at, 1414191623);

	/* entities decoded, a comment inside a value passed over */
	CHECK(sts(replaced(sts_example, "wJalrXUtnFEMI/", "wJalr<!-- x -->XUtnFEMI&#x2F;"), &c, &why));
	CHECK(strcmp(c.secret, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY") == 0);

	CHECK(!sts(replaced(sts_example, "<Expiration>2014-10-24T23:00:23Z</Expiration>", ""), &c, &why));
	CHECK(strcmp(why, "the answer has no Expiration in AssumeRoleWithWebIdentityResult/Credentials") == 0);
	CHECK(!sts(replaced(sts_example, "</Credentials>", "<AccessKeyId>ASIAOTHER</AccessKeyId></Credentials>"), &c, &why));
	CHECK(strcmp(why, "a field of Credentials is given twice") == 0);
	CHECK(!sts(replaced(sts_example, "<SessionToken>", "<SessionToken><x/>"), &c, &why));
	CHECK(strcmp(why, "a field of Credentials holds an element") == 0);
	CHECK(!sts(replaced(sts_example, "Response xmlns", "Result xmlns"), &c, &why));
	CHECK(!sts(replaced(sts_example, "<Credentials>", "<Credential>"), &c, &why));
	CHECK(!sts(replaced(sts_example, "2014-10-24T23:00:23Z", "soon"), &c, &why));
	CHECK(strcmp(why, "the expiration time is not an ISO 8601 UTC time") == 0);
	CHECK(!sts(replaced(sts_example, "ASgeIAIOSFODNN7EXAMPLE", "ASgeIAIOSF ODNN7EXAMPLE"), &c, &why));
	CHECK(strcmp(why, "the access key id holds a character other than visible ASCII") == 0);
	CHECK(!sts(replaced(sts_example, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY", ""), &c, &why));
	CHECK(strcmp(why, "the secret access key is empty") == 0);
	/* the same fields elsewhere are not the credentials */
	CHECK(!sts("<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult>"
			   "<AccessKeyId>A</AccessKeyId><SecretAccessKey>S</SecretAccessKey>"
			   "<SessionToken>T</SessionToken><Expiration>2014-10-24T23:00:23Z</Expiration>"
			   "</AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>", &c, &why));
	CHECK(!sts("", &c, &why));
}

static void
test_json(void)
{
	static const char imds[] =
	"{\n"
	"  \"Code\" : \"Success\",\n"
	"  \"LastUpdated\" : \"2012-04-26T16:39:16Z\",\n"
	"  \"Type\" : \"AWS-HMAC\",\n"
	"  \"AccessKeyId\" : \"ASIAIOSFODNN7EXAMPLE\",\n"
	"  \"SecretAccessKey\" : \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\",\n"
	"  \"Token\" : \"token\",\n"
	"  \"Expiration\" : \"2017-05-17T15:09:54Z\"\n"
	"}";
	static const char ecs[] =
	"{\n"
	"    \"AccessKeyId\": \"ACCESS_KEY_ID\",\n"
	"    \"Expiration\": \"2019-11-09T13:34:41Z\",\n"
	"    \"RoleArn\": \"TASK_ROLE_ARN\",\n"
	"    \"SecretAccessKey\": \"SECRET_ACCESS_KEY\",\n"
	"    \"Token\": \"SECURITY_TOKEN_STRING\"\n"
	"}";
	PqAwsCredentials c;
	const char *why;

	CHECK(json(imds, &c, &why));
	CHECK(strcmp(c.key_id, "ASIAIOSFODNN7EXAMPLE") == 0);
	CHECK(strcmp(c.secret, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY") == 0);
	CHECK(strcmp(c.session_token, "token") == 0);
	CHECK_EQ_INT(c.expires_at, 1495033794);
	CHECK(json(ecs, &c, &why));
	CHECK(strcmp(c.session_token, "SECURITY_TOKEN_STRING") == 0);
	CHECK_EQ_INT(c.expires_at, 1573306481);

	/* long-term keys: no Token (or null, or ""), no Expiration */
	CHECK(json("{\"AccessKeyId\":\"A\",\"SecretAccessKey\":\"S\"}", &c, &why));
	CHECK(c.session_token == NULL && c.expires_at == 0);
	CHECK(json("{\"AccessKeyId\":\"A\",\"SecretAccessKey\":\"S\",\"Token\":null,\"Expiration\":null}", &c, &why));
	CHECK(c.session_token == NULL && c.expires_at == 0);
	CHECK(json("{\"AccessKeyId\":\"A\",\"SecretAccessKey\":\"S\",\"Token\":\"\"}", &c, &why));
	CHECK(c.session_token == NULL);

	CHECK(!json(replaced(imds, "Success", "Failure"), &c, &why));
	CHECK(strcmp(why, "the answer's Code is not Success") == 0);
	CHECK(!json(replaced(imds, "\"AccessKeyId\"", "\"AccessKeyID\""), &c, &why));
	CHECK(strcmp(why, "the answer has no AccessKeyId") == 0);
	CHECK(!json(replaced(imds, "\"token\"", "[\"token\"]"), &c, &why));
	CHECK(strcmp(why, "the answer's Token is not a string") == 0);
	CHECK(!json(replaced(imds, "\"AccessKeyId\" : \"ASIAIOSFODNN7EXAMPLE\"", "\"AccessKeyId\" : null"), &c, &why));
	CHECK(strcmp(why, "the answer's AccessKeyId is not a string") == 0);
	CHECK(!json(replaced(imds, "2017-05-17T15:09:54Z", "tomorrow"), &c, &why));
	CHECK(!json(replaced(imds, "\"token\"", "\"tok\\u00e9n\""), &c, &why));
	CHECK(strcmp(why, "the session token holds a character other than visible ASCII") == 0);
	CHECK(!json(replaced(imds, "}", ",}"), &c, &why));
}

static void
test_lengths(void)
{
	PqAwsCredentials c = {0};
	char		key[PQ_AWS_MAX_KEY + 2];
	char	   *token = palloc(PQ_AWS_MAX_TOKEN + 2);

	memset(key, 'K', sizeof(key) - 1);
	key[PQ_AWS_MAX_KEY] = '\0';
	memset(token, 'T', PQ_AWS_MAX_TOKEN + 1);
	token[PQ_AWS_MAX_TOKEN] = '\0';
	c.key_id = key;
	c.secret = "s";
	c.session_token = token;
	CHECK(pq_aws_credentials_problem(&c) == NULL);
	key[PQ_AWS_MAX_KEY] = 'K';
	key[PQ_AWS_MAX_KEY + 1] = '\0';
	CHECK(strcmp(pq_aws_credentials_problem(&c), "the access key id is longer than 256 bytes") == 0);
	key[PQ_AWS_MAX_KEY] = '\0';
	token[PQ_AWS_MAX_TOKEN] = 'T';
	token[PQ_AWS_MAX_TOKEN + 1] = '\0';
	CHECK(strcmp(pq_aws_credentials_problem(&c), "the session token is longer than 16384 bytes") == 0);
	c.session_token = NULL;
	c.secret = "a\x7f";
	CHECK(strcmp(pq_aws_credentials_problem(&c), "the secret access key holds a character other than visible ASCII") == 0);
}

void
suite_credential_answers(void)
{
	ut_run("credential_answers: ISO 8601 times", test_times);
	ut_run("credential_answers: STS AssumeRoleWithWebIdentity", test_sts);
	ut_run("credential_answers: instance metadata and container JSON", test_json);
	ut_run("credential_answers: bounds of keys and tokens", test_lengths);
}
