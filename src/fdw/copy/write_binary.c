/*-------------------------------------------------------------------------
 *
 * write_binary.c
 *		text, varchar, bpchar, name, json, jsonb, bytea, uuid, enums and
 *		every type without a mapping -> Parquet BYTE_ARRAY /
 *		FIXED_LEN_BYTE_ARRAY.
 *
 * Varlena values are used in place (detoasted when needed): the
 * PqByteArrays point into the batch's Datums, which live until the
 * writer has copied them.  bpchar keeps its padding, as its text form
 * does.  Strings are converted to UTF-8 when the database encoding is
 * another one (SQL_ASCII bytes are written as they are).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/copy/write_convert.h"
#include "mb/pg_wchar.h"
#include "utils/fmgrprotos.h"
#include "utils/uuid.h"

/* a string in the database encoding as UTF-8 bytes */
static inline void
set_string(PqWriteColumn *col, PqByteArray *out, const char *s, size_t len)
{
	if (col->to_utf8)
	{
		s = pg_server_to_any(s, (int) len, PG_UTF8);
		len = strlen(s);
	}
	out->ptr = (const uint8 *) s;
	out->len = (uint32) len;
}

void
pqfdw_write_binary(PqWriteColumn *col, int n, int64 row_base)
{
	const Datum *v = col->values;
	const bool *nulls = col->nulls;
	PqByteArray *ba = col->ba;
	int			k = 0;
	int			i;

	switch (col->kind)
	{
		case PQW_VARLENA:
			for (i = 0; i < n; i++)
			{
				struct varlena *t;

				if (nulls[i])
					continue;
				t = PG_DETOAST_DATUM_PACKED(v[i]);
				set_string(col, &ba[k++], VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
			}
			break;
		case PQW_NAME:
			for (i = 0; i < n; i++)
			{
				const char *s;

				if (nulls[i])
					continue;
				s = NameStr(*DatumGetName(v[i]));
				set_string(col, &ba[k++], s, strlen(s));
			}
			break;
		case PQW_UUID:
			for (i = 0; i < n; i++)
				if (!nulls[i])
					memcpy(col->fixed + (size_t) (k++) * UUID_LEN,
						   DatumGetUUIDP(v[i])->data, UUID_LEN);
			break;
		case PQW_JSONB:
			for (i = 0; i < n; i++)
			{
				const char *s;

				if (nulls[i])
					continue;
				s = DatumGetCString(DirectFunctionCall1(jsonb_out, v[i]));
				set_string(col, &ba[k++], s, strlen(s));
			}
			break;
		case PQW_OUTPUT:
			for (i = 0; i < n; i++)
			{
				const char *s;

				if (nulls[i])
					continue;
				s = OutputFunctionCall(&col->out_func, v[i]);
				set_string(col, &ba[k++], s, strlen(s));
			}
			break;
		case PQW_GEO:
			for (i = 0; i < n; i++)
			{
				bytea	   *wkb;

				if (nulls[i])
					continue;
				wkb = DatumGetByteaPP(FunctionCall1(&col->out_func, v[i]));
				ba[k].ptr = (const uint8 *) VARDATA_ANY(wkb);
				ba[k].len = VARSIZE_ANY_EXHDR(wkb);
				k++;
			}
			break;
		default:
			elog(ERROR, "unexpected write kind %d", (int) col->kind);
	}
}
