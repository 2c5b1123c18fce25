/*-------------------------------------------------------------------------
 *
 * stdin.c
 *		The Parquet file of COPY ... FROM STDIN WITH (FORMAT parquet): the
 *		client's COPY-in stream into a temporary file.
 *
 * A Parquet file is read from its footer, so it cannot be decoded as it
 * streams in; it is stored first.  The message loop follows PostgreSQL's
 * CopyGetData(): CopyData is stored, CopyDone ends the file, CopyFail is
 * an error, Flush and Sync are ignored.  Cancel interrupts are held while
 * a message is being read, so a cancel cannot leave half a message in the
 * input.  After an ERROR the main loop discards the rest of the stream,
 * as for any COPY FROM STDIN.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

/*
 * libpq/libpq.h includes the GSSAPI headers for declarations not used here
 * (and not installed on every build machine); the Port struct keeps the
 * same layout without them.
 */
#undef ENABLE_GSS
#include "commands/progress.h"
#include "fdw/copy/copy_from.h"
#include "libpq/libpq.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "tcop/tcopprot.h"
#include "utils/backend_progress.h"
#include "utils/memutils.h"

/* Write all of data at offset, or raise an ERROR. */
static void
write_all(File file, const char *data, int len, off_t offset)
{
	while (len > 0)
	{
		int			n;

		errno = 0;
		n = FileWrite(file, (char *) data, len, offset,
					  WAIT_EVENT_COPY_FILE_WRITE);
		if (n <= 0)
		{
			/* a short write without errno means the disk is full */
			if (errno == 0)
				errno = ENOSPC;
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not write to temporary file \"%s\": %m",
							FilePathName(file))));
		}
		data += n;
		len -= n;
		offset += n;
	}
}

File
pqfdw_copy_receive_stdin(void)
{
	File		file;
	StringInfoData msg;
	StringInfoData buf;
	off_t		size = 0;

	if (whereToSendOutput != DestRemote)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY FROM STDIN with FORMAT parquet needs a client connection")));

	file = OpenTemporaryFile(false);

	/* CopyInResponse: binary, no per-column formats; the client waits */
	pq_beginmessage(&msg, 'G');
	pq_sendbyte(&msg, 1);
	pq_sendint16(&msg, 0);
	pq_endmessage(&msg);
	pq_flush();

	initStringInfo(&buf);
	for (;;)
	{
		int			mtype;
		int			maxmsglen;

		HOLD_CANCEL_INTERRUPTS();
		pq_startmsgread();
		mtype = pq_getbyte();
		if (mtype == EOF)
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("unexpected EOF on client connection with an open transaction")));
		switch (mtype)
		{
			case 'd':			/* CopyData */
				maxmsglen = PQ_LARGE_MESSAGE_LIMIT;
				break;
			case 'c':			/* CopyDone */
			case 'f':			/* CopyFail */
			case 'H':			/* Flush */
			case 'S':			/* Sync */
				maxmsglen = PQ_SMALL_MESSAGE_LIMIT;
				break;
			default:
				ereport(ERROR,
						(errcode(ERRCODE_PROTOCOL_VIOLATION),
						 errmsg("unexpected message type 0x%02X during COPY from stdin",
								mtype)));
				maxmsglen = 0;	/* keep compiler quiet */
				break;
		}
		resetStringInfo(&buf);
		if (pq_getmessage(&buf, maxmsglen))
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("unexpected EOF on client connection with an open transaction")));
		RESUME_CANCEL_INTERRUPTS();

		if (mtype == 'c')
			break;
		if (mtype == 'f')
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("COPY from stdin failed: %s",
							pq_getmsgstring(&buf))));
		if (mtype != 'd')
			continue;
		write_all(file, buf.data, buf.len, size);
		size += buf.len;
		pgstat_progress_update_param(PROGRESS_COPY_BYTES_PROCESSED, (int64) size);
		CHECK_FOR_INTERRUPTS();
	}
	pfree(buf.data);
	return file;
}
