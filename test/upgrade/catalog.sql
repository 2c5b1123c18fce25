-- Every object of the extension parquet_fdw, one line each with its whole
-- definition: what test/upgrade/upgrade.sh compares between a database
-- updated from 0.1 and a fresh install.  Members are found through
-- pg_depend (deptype 'e'), so an object the update script forgets, or one it
-- leaves behind, shows as a line of one side only.
WITH ext AS (
	SELECT oid FROM pg_extension WHERE extname = 'parquet_fdw'
), members AS (
	SELECT d.classid, d.objid
	  FROM pg_depend d, ext
	 WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid
	   AND d.deptype = 'e'
)
SELECT pg_describe_object(m.classid, m.objid, 0) || ': ' ||
	CASE m.classid
	WHEN 'pg_proc'::regclass THEN
		(SELECT pg_get_functiondef(p.oid) || ' acl ' || coalesce(p.proacl::text, '-')
		   FROM pg_proc p WHERE p.oid = m.objid)
	WHEN 'pg_class'::regclass THEN
		(SELECT c.relkind::text || ' acl ' || coalesce(c.relacl::text, '-') ||
				' columns ' ||
				(SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ||
								   CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END,
								   ', ' ORDER BY a.attnum)
				   FROM pg_attribute a
				  WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) ||
				' constraints ' ||
				coalesce((SELECT string_agg(pg_get_constraintdef(k.oid), ', ' ORDER BY k.conname)
							FROM pg_constraint k WHERE k.conrelid = c.oid), '-')
		   FROM pg_class c WHERE c.oid = m.objid)
	WHEN 'pg_foreign_data_wrapper'::regclass THEN
		(SELECT 'handler ' || w.fdwhandler::regproc || ' validator ' ||
				w.fdwvalidator::regproc || ' acl ' || coalesce(w.fdwacl::text, '-') ||
				' options ' || coalesce(w.fdwoptions::text, '-')
		   FROM pg_foreign_data_wrapper w WHERE w.oid = m.objid)
	ELSE '(no details compared)'
	END
  FROM members m
UNION ALL
SELECT 'schema parquet_fdw: acl ' || coalesce(nspacl::text, '-')
  FROM pg_namespace WHERE nspname = 'parquet_fdw'
UNION ALL
SELECT 'configuration tables: ' ||
	coalesce((SELECT string_agg(t::regclass::text, ', ') FROM unnest(extconfig) t), '-') ||
	' conditions ' || coalesce(extcondition::text, '-')
  FROM pg_extension WHERE extname = 'parquet_fdw'
ORDER BY 1;
