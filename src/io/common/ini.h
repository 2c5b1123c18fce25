/*-------------------------------------------------------------------------
 *
 * ini.h
 *		The INI files cloud tools keep their settings in (AWS's shared
 *		credentials and config files): sections of "key = value" lines.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_INI_H
#define PQ_IO_INI_H

/* Longest line, without its line break. */
#define PQ_INI_MAX_LINE 16384

typedef struct PqIniEntry
{
	const char *section;		/* as between the brackets, trimmed */
	char	   *key;
	char	   *value;			/* trimmed, without a trailing comment */
	int			line;			/* from 1 */
	bool		continued;		/* indented lines follow (sub-settings) */
} PqIniEntry;

typedef struct PqIniFile
{
	char	  **sections;		/* each section header's name, in file order */
	int			nsections;
	PqIniEntry *entries;
	int			nentries;
} PqIniFile;

/*
 * Read text (len bytes).  Blank lines and lines starting with "#" or ";"
 * are comments, and so is what follows a "#" or ";" that follows a blank
 * in a setting or after a section's "]".  An indented line after a setting
 * continues it (a sub-setting, not read).  A line longer than
 * PQ_INI_MAX_LINE, a NUL byte, a setting before any section or a line that
 * is none of these make the file malformed: false, with why and the line
 * number set (why holds nothing of the text: it may be a secret).
 */
extern bool pq_ini_parse(const char *text, size_t len, PqIniFile *out,
						 const char **why, int *line);

extern bool pq_ini_has_section(const PqIniFile *f, const char *section);

/*
 * The setting key (compared without regard to case, as the tools do) of
 * section, or NULL; *again is set to a second one when there is one.
 */
extern const PqIniEntry *pq_ini_lookup(const PqIniFile *f,
									   const char *section, const char *key,
									   const PqIniEntry **again);

#endif							/* PQ_IO_INI_H */
