/*
 * iceberg_manifest_cli.c
 *		An Iceberg manifest list or manifest as src/table/iceberg/
 *		manifest.c decodes it, printed as JSON for
 *		test/js/check_iceberg_manifests.mjs.  Built with the unit-test
 *		shim (ASan + UBSan): `make iceberg_manifest_cli`.
 *
 *		iceberg_manifest_cli list FILE [FORMAT_VERSION]
 *			{"manifests":[...]}: pq_iceberg_read_manifest_list()
 *		iceberg_manifest_cli manifest FILE [LIST_FILE]
 *			{"entries":[...]}: pq_iceberg_read_manifest(), inheriting from
 *			the entry of LIST_FILE whose manifest_path names FILE (by its
 *			last path component); without LIST_FILE, nothing inherited
 *
 *		64-bit integers print as JSON strings, bytes as lower-case hex,
 *		floating-point partition values as "%.17g" strings.  A file
 *		refused prints "REFUSED <why>", an ERROR "ERROR <SQLSTATE>
 *		<message>"; both exit with status 1.
 */
#include "postgres.h"

#include "unit_test.h"
#include "table/iceberg/manifest.h"

static void
put_string(const char *s)
{
	putchar('"');
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void
put_opt_string(const char *s)
{
	if (s == NULL)
		printf("null");
	else
		put_string(s);
}

static void
put_hex(const uint8 *b, int32 len)
{
	int32		i;

	if (b == NULL)
	{
		printf("null");
		return;
	}
	putchar('"');
	for (i = 0; i < len; i++)
		printf("%02x", b[i]);
	putchar('"');
}

static void
put_i64(int64 v)
{
	printf("\"" INT64_FORMAT "\"", v);
}

static void
put_opt_i64(bool has, int64 v)
{
	if (has)
		put_i64(v);
	else
		printf("null");
}

static void
print_list(const PqIcebergManifestFile *m, int n)
{
	int			i,
				j;

	printf("{\"manifests\":[");
	for (i = 0; i < n; i++, m++)
	{
		printf("%s\n{\"manifest_path\":", i ? "," : "");
		put_string(m->manifest_path);
		printf(",\"manifest_length\":");
		put_i64(m->manifest_length);
		printf(",\"partition_spec_id\":%d,\"content\":%d,\"sequence_number\":",
			   m->partition_spec_id, m->content);
		put_i64(m->sequence_number);
		printf(",\"min_sequence_number\":");
		put_i64(m->min_sequence_number);
		printf(",\"added_snapshot_id\":");
		put_i64(m->added_snapshot_id);
		printf(",\"first_row_id\":");
		put_opt_i64(m->has_first_row_id, m->first_row_id);
		printf(",\"partitions\":[");
		for (j = 0; j < m->npartitions; j++)
		{
			const PqIcebergFieldSummary *s = &m->partitions[j];

			printf("%s{\"contains_null\":%s,\"contains_nan\":%s,\"lower_bound\":",
				   j ? "," : "", s->contains_null ? "true" : "false",
				   !s->has_contains_nan ? "null" : s->contains_nan ? "true" : "false");
			put_hex(s->lower_bound, s->lower_len);
			printf(",\"upper_bound\":");
			put_hex(s->upper_bound, s->upper_len);
			putchar('}');
		}
		printf("]}");
	}
	printf("]}\n");
}

static void
print_counts(const char *name, const PqIcebergCount *c, int n)
{
	int			i;

	printf(",\"%s\":[", name);
	for (i = 0; i < n; i++)
	{
		printf("%s[%d,", i ? "," : "", c[i].field_id);
		put_i64(c[i].count);
		putchar(']');
	}
	putchar(']');
}

static void
print_bounds(const char *name, const PqIcebergBound *b, int n)
{
	int			i;

	printf(",\"%s\":[", name);
	for (i = 0; i < n; i++)
	{
		printf("%s[%d,", i ? "," : "", b[i].field_id);
		put_hex(b[i].bytes, b[i].len);
		putchar(']');
	}
	putchar(']');
}

static void
print_value(const PqIcebergValue *v)
{
	static const char *const names[] = {
		"null", "boolean", "int", "long", "float", "double", "string",
		"bytes", "fixed"
	};

	printf("\"type\":\"%s\",\"value\":", names[v->type]);
	switch (v->type)
	{
		case PQ_ICEBERG_NULL:
			printf("null");
			break;
		case PQ_ICEBERG_BOOLEAN:
			printf(v->i ? "true" : "false");
			break;
		case PQ_ICEBERG_INT:
		case PQ_ICEBERG_LONG:
			put_i64(v->i);
			break;
		case PQ_ICEBERG_FLOAT:
		case PQ_ICEBERG_DOUBLE:
			printf("\"%.17g\"", v->d);
			break;
		case PQ_ICEBERG_STRING:
			put_string((const char *) v->bytes);
			break;
		case PQ_ICEBERG_BYTES:
		case PQ_ICEBERG_FIXED:
			put_hex(v->bytes, v->len);
			break;
	}
}

static void
print_entries(const PqIcebergEntry *e, int n)
{
	int			i,
				j;

	printf("{\"entries\":[");
	for (i = 0; i < n; i++, e++)
	{
		const PqIcebergDataFile *d = &e->file;

		printf("%s\n{\"status\":%d,\"snapshot_id\":", i ? "," : "", e->status);
		put_opt_i64(e->has_snapshot_id, e->snapshot_id);
		printf(",\"sequence_number\":");
		put_opt_i64(e->has_sequence_number, e->sequence_number);
		printf(",\"file_sequence_number\":");
		put_opt_i64(e->has_file_sequence_number, e->file_sequence_number);
		printf(",\"data_file\":{\"content\":%d,\"file_path\":", d->content);
		put_string(d->file_path);
		printf(",\"file_format\":");
		put_string(d->file_format);
		printf(",\"partition\":[");
		for (j = 0; j < d->npartition; j++)
		{
			printf("%s{\"field_id\":%d,\"name\":", j ? "," : "",
				   d->partition[j].field_id);
			put_string(d->partition[j].name);
			putchar(',');
			print_value(&d->partition[j].value);
			putchar('}');
		}
		printf("],\"record_count\":");
		put_i64(d->record_count);
		printf(",\"file_size_in_bytes\":");
		put_i64(d->file_size_in_bytes);
		print_counts("value_counts", d->value_counts, d->nvalue_counts);
		print_counts("null_value_counts", d->null_value_counts,
					 d->nnull_value_counts);
		print_counts("nan_value_counts", d->nan_value_counts,
					 d->nnan_value_counts);
		print_bounds("lower_bounds", d->lower_bounds, d->nlower_bounds);
		print_bounds("upper_bounds", d->upper_bounds, d->nupper_bounds);
		printf(",\"equality_ids\":[");
		for (j = 0; j < d->nequality_ids; j++)
			printf("%s%d", j ? "," : "", d->equality_ids[j]);
		printf("],\"referenced_data_file\":");
		put_opt_string(d->referenced_data_file);
		printf(",\"content_offset\":");
		put_opt_i64(d->has_content_offset, d->content_offset);
		printf(",\"content_size_in_bytes\":");
		put_opt_i64(d->has_content_offset, d->content_size_in_bytes);
		printf(",\"first_row_id\":");
		put_opt_i64(d->has_first_row_id, d->first_row_id);
		printf("}}");
	}
	printf("]}\n");
}

/* The list's entry for the manifest at path: same last path component. */
static const PqIcebergManifestFile *
find_listed(const PqIcebergManifestFile *m, int n, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int			i;

	for (i = 0; i < n; i++)
	{
		const char *b = strrchr(m[i].manifest_path, '/');

		if (strcmp(b ? b + 1 : m[i].manifest_path, base) == 0)
			return &m[i];
	}
	return NULL;
}

static int
run(bool list, const char *path, const char *arg)
{
	volatile int status = 0;
	size_t		len;
	uint8	   *data = ut_read_file(path, &len);
	uint8	   *ldata = NULL;

	if (!list && arg != NULL)
	{
		size_t		llen;

		ldata = ut_read_file(arg, &llen);
		PG_TRY();
		{
			PqIcebergManifestFile *files;
			const PqIcebergManifestFile *from;
			PqIcebergEntry *entries;
			int			n;
			const char *why = NULL;

			if (!pq_iceberg_read_manifest_list(ldata, llen, 0, &files, &n, &why))
			{
				printf("REFUSED the list: %s\n", why);
				status = 1;
			}
			else if ((from = find_listed(files, n, path)) == NULL)
			{
				fprintf(stderr, "iceberg_manifest_cli: %s does not list %s\n",
						arg, path);
				status = 2;
			}
			else if (!pq_iceberg_read_manifest(data, len, from, &entries, &n, &why))
			{
				printf("REFUSED %s\n", why);
				status = 1;
			}
			else
				print_entries(entries, n);
		}
		PG_CATCH();
		{
			ut_print_error();
			status = 1;
		}
		PG_END_TRY();
	}
	else
	{
		PG_TRY();
		{
			const char *why = NULL;
			int			n;

			if (list)
			{
				PqIcebergManifestFile *files;

				if (!pq_iceberg_read_manifest_list(data, len,
												   arg ? atoi(arg) : 0,
												   &files, &n, &why))
				{
					printf("REFUSED %s\n", why);
					status = 1;
				}
				else
					print_list(files, n);
			}
			else
			{
				PqIcebergEntry *entries;

				if (!pq_iceberg_read_manifest(data, len, NULL, &entries, &n, &why))
				{
					printf("REFUSED %s\n", why);
					status = 1;
				}
				else
					print_entries(entries, n);
			}
		}
		PG_CATCH();
		{
			ut_print_error();
			status = 1;
		}
		PG_END_TRY();
	}
	shim_free_all();
	free(data);
	free(ldata);
	return status;
}

int
main(int argc, char **argv)
{
	if ((argc != 3 && argc != 4) ||
		(strcmp(argv[1], "list") != 0 && strcmp(argv[1], "manifest") != 0))
	{
		fprintf(stderr, "usage: iceberg_manifest_cli list FILE [FORMAT_VERSION]\n"
				"       iceberg_manifest_cli manifest FILE [LIST_FILE]\n");
		return 2;
	}
	return run(strcmp(argv[1], "list") == 0, argv[2], argc == 4 ? argv[3] : NULL);
}
