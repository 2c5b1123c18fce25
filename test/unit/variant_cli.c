/*
 * variant_cli.c
 *		The VARIANT decoder's JSON for test/js/check_variant.mjs, one line
 *		per value: the JSON text, NULL (SQL NULL), or "ERROR <SQLSTATE>
 *		<message>".  Built with the unit-test shim: `make variant_cli`.
 *
 *		variant_cli binary METADATA_FILE VALUE_FILE
 *			one Variant from its two components
 *		variant_cli bin FILE
 *			one Variant stored as metadata followed by value (the
 *			parquet-testing shredded_variant/case-NNN_row-N.variant.bin files)
 *		variant_cli batch FILE
 *			many: records of [u32 LE length][metadata][u32 LE length][value]
 *		variant_cli tree FILE
 *			shredded VARIANT groups through pq_variant_group_to_json, from a
 *			text description of the group's schema and of each row's value
 *			tree (check_variant.mjs writes it from hyparquet's assembly of
 *			the Parquet file, standing in for our record assembler):
 *				node <name hex> <repetition> <is_leaf> <physical>
 *					<type_length> <logical id> <scale> <precision> <utc>
 *					<unit> <bit width> <signed> <n children>   (depth first)
 *				rows <n>, then per row a value, depth first:
 *				n | s <hex or -> | b <0|1> | i <int32> | l <int64> | f <hex bits>
 *				| d <hex bits> | g <n> <children...> | L <n> <items...>
 */
#include "postgres.h"

#include "unit_test.h"
#include "format/variant/variant.h"

static void
print_buffer(const PqBuffer *buf)
{
	fwrite(buf->data, 1, buf->len, stdout);
	putchar('\n');
}

static void
print_binary(const uint8 *meta, size_t meta_len, const uint8 *value,
			 size_t value_len)
{
	PqBuffer	buf;

	/* exact-size copies: reads past either component are caught */
	meta = ut_exact_copy(meta, meta_len);
	value = ut_exact_copy(value, value_len);
	PG_TRY();
	{
		pq_buffer_init(&buf, 64);
		pq_variant_binary_to_json(&buf, meta, meta_len, value, value_len);
		print_buffer(&buf);
	}
	PG_CATCH();
	{
		ut_print_error();
	}
	PG_END_TRY();
	shim_free_all();
}

/* The length of the metadata at the start of a .variant.bin file. */
static size_t
metadata_length(const uint8 *p, size_t len)
{
	int			osz;
	uint64		n;
	uint64		total;
	int			i;

	if (len < 1)
		return len;
	osz = ((p[0] >> 6) & 3) + 1;
	if (len < (size_t) 1 + osz)
		return len;
	for (n = 0, i = osz - 1; i >= 0; i--)
		n = (n << 8) | p[1 + i];
	total = 1 + osz + (n + 1) * osz;
	if (total > len)
		return len;
	{
		uint64		last = 0;

		for (i = osz - 1; i >= 0; i--)
			last = (last << 8) | p[1 + osz + n * osz + i];
		total += last;
	}
	return total > len ? len : (size_t) total;
}

static uint32
batch_u32(const uint8 *data, size_t len, size_t *pos)
{
	uint32		v;

	if (len - *pos < 4)
	{
		fprintf(stderr, "variant_cli: truncated batch file\n");
		exit(2);
	}
	v = pq_load_le32(data + *pos);
	*pos += 4;
	if (len - *pos < v)
	{
		fprintf(stderr, "variant_cli: truncated batch file\n");
		exit(2);
	}
	return v;
}

/* ---- tree mode: a tiny tokenizer over the description file ---- */

typedef struct Tokens
{
	char	   *p;
}			Tokens;

static char *
next_token(Tokens * t)
{
	char	   *start;

	while (*t->p == ' ' || *t->p == '\n' || *t->p == '\t' || *t->p == '\r')
		t->p++;
	if (*t->p == '\0')
	{
		fprintf(stderr, "variant_cli: tree description ends early\n");
		exit(2);
	}
	start = t->p;
	while (*t->p && *t->p != ' ' && *t->p != '\n' && *t->p != '\t' && *t->p != '\r')
		t->p++;
	if (*t->p)
		*t->p++ = '\0';
	return start;
}

static long long
next_int(Tokens * t)
{
	return strtoll(next_token(t), NULL, 10);
}

/* hex digits, or "-" for no bytes */
static uint8 *
hex_bytes(const char *s, uint32 *len)
{
	size_t		n = strcmp(s, "-") == 0 ? 0 : strlen(s) / 2;
	uint8	   *out = palloc(n > 0 ? n : 1);
	size_t		i;

	for (i = 0; i < n; i++)
	{
		unsigned int b;

		sscanf(s + 2 * i, "%2x", &b);
		out[i] = (uint8) b;
	}
	*len = (uint32) n;
	return out;
}

static PqSchemaNode *
parse_node(Tokens * t, PqSchemaNode *parent)
{
	PqSchemaNode *n = palloc0(sizeof(PqSchemaNode));
	uint32		name_len;
	uint8	   *name;
	int			i;

	if (strcmp(next_token(t), "node") != 0)
	{
		fprintf(stderr, "variant_cli: expected a node\n");
		exit(2);
	}
	name = hex_bytes(next_token(t), &name_len);
	n->name = palloc0(name_len + 1);
	memcpy((char *) n->name, name, name_len);
	n->repetition = (int) next_int(t);
	n->is_leaf = next_int(t) != 0;
	n->physical_type = (int) next_int(t);
	n->type_length = (int) next_int(t);
	n->logical.id = (int) next_int(t);
	n->logical.decimal_scale = (int32) next_int(t);
	n->logical.decimal_precision = (int32) next_int(t);
	n->logical.is_adjusted_to_utc = next_int(t) != 0;
	n->logical.time_unit = (int) next_int(t);
	n->logical.int_bit_width = (int) next_int(t);
	n->logical.int_is_signed = next_int(t) != 0;
	n->converted_type = -1;
	n->parent = parent;
	n->n_children = (int) next_int(t);
	n->children = palloc0(sizeof(PqSchemaNode *) * Max(n->n_children, 1));
	for (i = 0; i < n->n_children; i++)
		n->children[i] = parse_node(t, n);
	return n;
}

static void
parse_value(Tokens * t, const PqSchemaNode *node, PqValue *v)
{
	char	   *kind = next_token(t);
	int			i;

	memset(v, 0, sizeof(*v));
	v->node = node;
	switch (kind[0])
	{
		case 'n':
			v->kind = PQ_VAL_NULL;
			break;
		case 's':
			v->kind = PQ_VAL_SCALAR;
			v->u.scalar.bytes.ptr = hex_bytes(next_token(t), &v->u.scalar.bytes.len);
			/* exact size for ASan */
			v->u.scalar.bytes.ptr = ut_exact_copy(v->u.scalar.bytes.ptr,
												  v->u.scalar.bytes.len);
			break;
		case 'b':
			v->kind = PQ_VAL_SCALAR;
			v->u.scalar.b = next_int(t) != 0;
			break;
		case 'i':
			v->kind = PQ_VAL_SCALAR;
			v->u.scalar.i32 = (int32) next_int(t);
			break;
		case 'l':
			v->kind = PQ_VAL_SCALAR;
			v->u.scalar.i64 = (int64) next_int(t);
			break;
		case 'f':
			{
				uint32		bits = (uint32) strtoul(next_token(t), NULL, 16);

				v->kind = PQ_VAL_SCALAR;
				memcpy(&v->u.scalar.f, &bits, 4);
				break;
			}
		case 'd':
			{
				uint64		bits = strtoull(next_token(t), NULL, 16);

				v->kind = PQ_VAL_SCALAR;
				memcpy(&v->u.scalar.d, &bits, 8);
				break;
			}
		case 'g':
			v->kind = PQ_VAL_GROUP;
			v->u.children.n = (int) next_int(t);
			if (v->u.children.n != node->n_children)
			{
				fprintf(stderr, "variant_cli: group \"%s\" value has %d children, node %d\n",
						node->name, v->u.children.n, node->n_children);
				exit(2);
			}
			v->u.children.items = palloc0(sizeof(PqValue) * Max(v->u.children.n, 1));
			for (i = 0; i < v->u.children.n; i++)
				parse_value(t, node->children[i], &v->u.children.items[i]);
			break;
		case 'L':
			v->kind = PQ_VAL_LIST;
			v->u.children.n = (int) next_int(t);
			v->u.children.items = palloc0(sizeof(PqValue) * Max(v->u.children.n, 1));
			for (i = 0; i < v->u.children.n; i++)
				parse_value(t, node, &v->u.children.items[i]);
			break;
		default:
			fprintf(stderr, "variant_cli: unknown value kind %s\n", kind);
			exit(2);
	}
}

static void
run_tree(const char *path)
{
	size_t		len;
	char	   *text = (char *) ut_read_file(path, &len);
	Tokens		t;
	PqSchemaNode *root;
	long long	rows;
	long long	r;

	text = realloc(text, len + 1);
	text[		len] = '\0';
	t.p = text;

	root = parse_node(&t, NULL);
	if (strcmp(next_token(&t), "rows") != 0)
	{
		fprintf(stderr, "variant_cli: expected rows\n");
		exit(2);
	}
	rows = next_int(&t);
	for (r = 0; r < rows; r++)
	{
		PqValue		v;

		parse_value(&t, root, &v);
		PG_TRY();
		{
			PqBuffer	buf;

			pq_buffer_init(&buf, 64);
			if (pq_variant_group_to_json(&buf, &v))
				print_buffer(&buf);
			else
				printf("NULL\n");
		}
		PG_CATCH();
		{
			ut_print_error();
		}
		PG_END_TRY();
	}
	shim_free_all();
	free(text);
}

int
main(int argc, char **argv)
{
	size_t		len;
	uint8	   *data;

	if (argc == 4 && strcmp(argv[1], "binary") == 0)
	{
		size_t		mlen;
		uint8	   *meta = ut_read_file(argv[2], &mlen);

		data = ut_read_file(argv[3], &len);
		print_binary(meta, mlen, data, len);
		free(meta);
		free(data);
	}
	else if (argc == 3 && strcmp(argv[1], "bin") == 0)
	{
		size_t		mlen;

		data = ut_read_file(argv[2], &len);
		mlen = metadata_length(data, len);
		print_binary(data, mlen, data + mlen, len - mlen);
		free(data);
	}
	else if (argc == 3 && strcmp(argv[1], "batch") == 0)
	{
		size_t		pos = 0;

		data = ut_read_file(argv[2], &len);
		while (pos < len)
		{
			uint32		mlen = batch_u32(data, len, &pos);
			const uint8 *meta = data + pos;
			uint32		vlen;

			pos += mlen;
			vlen = batch_u32(data, len, &pos);
			print_binary(meta, mlen, data + pos, vlen);
			pos += vlen;
		}
		free(data);
	}
	else if (argc == 3 && strcmp(argv[1], "tree") == 0)
		run_tree(argv[2]);
	else
	{
		fprintf(stderr, "usage: variant_cli binary META VALUE | bin FILE | batch FILE | tree FILE\n");
		return 2;
	}
	fflush(stdout);
	return 0;
}
