/*-------------------------------------------------------------------------
 *
 * credential_answers.h
 *		What credential services answer, read: STS's
 *		AssumeRoleWithWebIdentity XML, the JSON of container credentials
 *		and EC2 instance metadata, their ISO 8601 expiration times.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_CREDENTIAL_ANSWERS_H
#define PQ_IO_CREDENTIAL_ANSWERS_H

#include "io/aws/credentials.h"

/* Longest key id or secret, and longest session token, accepted. */
#define PQ_AWS_MAX_KEY 256
#define PQ_AWS_MAX_TOKEN 16384

/*
 * Each function below returns false on a malformed input, with why set to
 * a sentence part that holds nothing of the input (it may be a secret).
 */

/* "2024-05-01T12:00:00Z" (fraction and offset allowed) as Unix seconds. */
extern bool pq_aws_parse_time(const char *s, int64 *out, const char **why);

/*
 * The Credentials of an AssumeRoleWithWebIdentityResponse (len bytes);
 * every one of the four fields must be there, once.
 */
extern bool pq_aws_parse_sts_answer(const char *body, size_t len,
									PqAwsCredentials *out, const char **why);

/*
 * A JSON object with AccessKeyId and SecretAccessKey, and Token and
 * Expiration if the credentials are temporary; a Code (instance metadata)
 * must be "Success".
 */
extern bool pq_aws_parse_json_answer(const char *body, size_t len,
									 PqAwsCredentials *out, const char **why);

/*
 * Why the credentials cannot be used (a value empty, too long, or holding
 * a character other than visible ASCII), or NULL.
 */
extern const char *pq_aws_credentials_problem(const PqAwsCredentials *c);

#endif							/* PQ_IO_CREDENTIAL_ANSWERS_H */
