// The analytic queries of bench/hits.sh (issue 35): our own queries over the
// hits-shaped table of bench/gen_hits.mjs, of the shapes ClickBench's
// PostgreSQL flavour runs (counts and filtered counts, plain and DISTINCT
// aggregates, GROUP BY on one to five keys with hundreds of thousands of
// groups, an expression over a text column as the key, ninety sums over
// one column, LIKE filters, top-N of whole rows, the dashboard queries of
// one counter and a date range).  Thresholds are scaled for about one
// million rows.  Each entry: key, the shape it stands for, sql(table).
// Every ORDER BY ... LIMIT orders the rows it returns completely (ties
// broken by more keys), so that every reader's rows can be compared with
// the heap table's as they come.

const sums = Array.from({ length: 90 }, (_, k) => (k ? `sum(ResolutionWidth + ${k})` : 'sum(ResolutionWidth)')).join(', ');
const dash = "CounterID = 62 AND EventDate >= DATE '2013-07-01' AND EventDate <= DATE '2013-07-31'";

export const QUERIES = [
  { key: 'count', shape: 'count(*)', sql: (t) => `SELECT count(*) FROM ${t}` },
  { key: 'count_where', shape: 'filtered count', sql: (t) => `SELECT count(*) FROM ${t} WHERE AdvEngineID <> 0` },
  { key: 'sums', shape: 'three aggregates', sql: (t) => `SELECT sum(AdvEngineID), count(*), avg(ResolutionWidth) FROM ${t}` },
  { key: 'avg_big', shape: 'avg of a bigint', sql: (t) => `SELECT avg(UserID) FROM ${t}` },
  { key: 'distinct_users', shape: 'COUNT(DISTINCT bigint)', sql: (t) => `SELECT count(DISTINCT UserID) FROM ${t}` },
  { key: 'distinct_phrases', shape: 'COUNT(DISTINCT text)', sql: (t) => `SELECT count(DISTINCT SearchPhrase) FROM ${t}` },
  { key: 'date_range', shape: 'min/max of a date', sql: (t) => `SELECT min(EventDate), max(EventDate) FROM ${t}` },
  { key: 'adv_groups', shape: 'small GROUP BY, filtered', sql: (t) => `SELECT AdvEngineID, count(*) FROM ${t} WHERE AdvEngineID <> 0 GROUP BY AdvEngineID ORDER BY count(*) DESC, AdvEngineID` },
  { key: 'region_users', shape: 'COUNT(DISTINCT) per group', sql: (t) => `SELECT RegionID, count(DISTINCT UserID) AS u FROM ${t} GROUP BY RegionID ORDER BY u DESC, RegionID LIMIT 10` },
  { key: 'region_mix', shape: 'aggregates and COUNT(DISTINCT) per group', sql: (t) => `SELECT RegionID, sum(AdvEngineID), count(*) AS c, avg(ResolutionWidth), count(DISTINCT UserID) FROM ${t} GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 10` },
  { key: 'phone_users', shape: 'COUNT(DISTINCT) by a sparse text key', sql: (t) => `SELECT MobilePhoneModel, count(DISTINCT UserID) AS u FROM ${t} WHERE MobilePhoneModel <> '' GROUP BY MobilePhoneModel ORDER BY u DESC, MobilePhoneModel LIMIT 10` },
  { key: 'phone2_users', shape: 'COUNT(DISTINCT) by two keys', sql: (t) => `SELECT MobilePhone, MobilePhoneModel, count(DISTINCT UserID) AS u FROM ${t} WHERE MobilePhoneModel <> '' GROUP BY MobilePhone, MobilePhoneModel ORDER BY u DESC, 1, 2 LIMIT 10` },
  { key: 'phrases', shape: 'GROUP BY a text key, top 10', sql: (t) => `SELECT SearchPhrase, count(*) AS c FROM ${t} WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10` },
  { key: 'phrase_users', shape: 'COUNT(DISTINCT) by a text key', sql: (t) => `SELECT SearchPhrase, count(DISTINCT UserID) AS u FROM ${t} WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY u DESC, SearchPhrase LIMIT 10` },
  { key: 'engine_phrases', shape: 'GROUP BY smallint and text', sql: (t) => `SELECT SearchEngineID, SearchPhrase, count(*) AS c FROM ${t} WHERE SearchPhrase <> '' GROUP BY SearchEngineID, SearchPhrase ORDER BY c DESC, 1, 2 LIMIT 10` },
  { key: 'users', shape: 'GROUP BY 100k+ bigint keys', sql: (t) => `SELECT UserID, count(*) FROM ${t} GROUP BY UserID ORDER BY count(*) DESC, UserID LIMIT 10` },
  { key: 'user_phrases', shape: 'GROUP BY bigint and text, ordered', sql: (t) => `SELECT UserID, SearchPhrase, count(*) FROM ${t} GROUP BY UserID, SearchPhrase ORDER BY count(*) DESC, 1, 2 LIMIT 10` },
  { key: 'user_phrases_any', shape: 'GROUP BY bigint and text, any 10', sql: (t) => `SELECT count(*) FROM (SELECT UserID, SearchPhrase, count(*) FROM ${t} GROUP BY UserID, SearchPhrase LIMIT 10) s` },
  { key: 'user_minute_phrases', shape: 'GROUP BY three keys, one an expression', sql: (t) => `SELECT UserID, extract(minute FROM EventTime) AS m, SearchPhrase, count(*) FROM ${t} GROUP BY UserID, m, SearchPhrase ORDER BY count(*) DESC, 1, 2, 3 LIMIT 10` },
  { key: 'user_point', shape: 'point lookup on a bigint', sql: (t) => `SELECT UserID FROM ${t} WHERE UserID = 435090932899647919` },
  { key: 'like_count', shape: "LIKE '%...%' count", sql: (t) => `SELECT count(*) FROM ${t} WHERE URL LIKE '%google%'` },
  { key: 'like_phrases', shape: 'LIKE filter, GROUP BY text, min(text)', sql: (t) => `SELECT SearchPhrase, min(URL), count(*) AS c FROM ${t} WHERE URL LIKE '%google%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10` },
  { key: 'like_titles', shape: 'two LIKE filters, COUNT(DISTINCT)', sql: (t) => `SELECT SearchPhrase, min(URL), min(Title), count(*) AS c, count(DISTINCT UserID) FROM ${t} WHERE Title LIKE '%Google%' AND URL NOT LIKE '%.google.%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10` },
  { key: 'topn_star', shape: 'SELECT * top-N with a LIKE filter', sql: (t) => `SELECT * FROM ${t} WHERE URL LIKE '%google%' ORDER BY EventTime, WatchID LIMIT 10` },
  { key: 'topn_phrase_time', shape: 'top-N of a text by a timestamp', sql: (t) => `SELECT SearchPhrase FROM ${t} WHERE SearchPhrase <> '' ORDER BY EventTime, WatchID LIMIT 10` },
  { key: 'topn_phrase', shape: 'top-N of a text by itself', sql: (t) => `SELECT SearchPhrase FROM ${t} WHERE SearchPhrase <> '' ORDER BY SearchPhrase LIMIT 10` },
  { key: 'topn_phrase_two', shape: 'top-N by two keys', sql: (t) => `SELECT SearchPhrase FROM ${t} WHERE SearchPhrase <> '' ORDER BY EventTime, SearchPhrase LIMIT 10` },
  { key: 'url_length', shape: 'avg(length(text)) per group, HAVING', sql: (t) => `SELECT CounterID, avg(length(URL)) AS l, count(*) AS c FROM ${t} WHERE URL <> '' GROUP BY CounterID HAVING count(*) > 1000 ORDER BY l DESC, CounterID LIMIT 25` },
  { key: 'referer_domains', shape: 'regexp_replace() of a text as the key', sql: (t) => `SELECT regexp_replace(Referer, '^https?://(?:www\\.)?([^/]+)/.*$', '\\1') AS k, avg(length(Referer)) AS l, count(*) AS c, min(Referer) FROM ${t} WHERE Referer <> '' GROUP BY k HAVING count(*) > 1000 ORDER BY l DESC, k LIMIT 25` },
  { key: 'ninety_sums', shape: 'ninety sums over one smallint', sql: (t) => `SELECT ${sums} FROM ${t}` },
  { key: 'engine_ip', shape: 'GROUP BY two keys, filtered', sql: (t) => `SELECT SearchEngineID, ClientIP, count(*) AS c, sum(IsRefresh), avg(ResolutionWidth) FROM ${t} WHERE SearchPhrase <> '' GROUP BY SearchEngineID, ClientIP ORDER BY c DESC, 1, 2 LIMIT 10` },
  { key: 'watch_ip_filtered', shape: 'GROUP BY unique keys, filtered', sql: (t) => `SELECT WatchID, ClientIP, count(*) AS c, sum(IsRefresh), avg(ResolutionWidth) FROM ${t} WHERE SearchPhrase <> '' GROUP BY WatchID, ClientIP ORDER BY c DESC, 1, 2 LIMIT 10` },
  { key: 'watch_ip', shape: 'GROUP BY unique keys, every row', sql: (t) => `SELECT WatchID, ClientIP, count(*) AS c, sum(IsRefresh), avg(ResolutionWidth) FROM ${t} GROUP BY WatchID, ClientIP ORDER BY c DESC, 1, 2 LIMIT 10` },
  { key: 'urls', shape: 'GROUP BY a high-cardinality text', sql: (t) => `SELECT URL, count(*) AS c FROM ${t} GROUP BY URL ORDER BY c DESC, URL LIMIT 10` },
  { key: 'urls_const', shape: 'GROUP BY a constant and a text', sql: (t) => `SELECT 1, URL, count(*) AS c FROM ${t} GROUP BY 1, URL ORDER BY c DESC, URL LIMIT 10` },
  { key: 'ip_exprs', shape: 'GROUP BY a column and expressions of it', sql: (t) => `SELECT ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3, count(*) AS c FROM ${t} GROUP BY ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3 ORDER BY c DESC, 1 LIMIT 10` },
  { key: 'dash_urls', shape: 'dashboard: URLs of one counter and month', sql: (t) => `SELECT URL, count(*) AS PageViews FROM ${t} WHERE ${dash} AND DontCountHits = 0 AND IsRefresh = 0 AND URL <> '' GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10` },
  { key: 'dash_titles', shape: 'dashboard: titles', sql: (t) => `SELECT Title, count(*) AS PageViews FROM ${t} WHERE ${dash} AND DontCountHits = 0 AND IsRefresh = 0 AND Title <> '' GROUP BY Title ORDER BY PageViews DESC, Title LIMIT 10` },
  { key: 'dash_links', shape: 'dashboard: links, OFFSET', sql: (t) => `SELECT URL, count(*) AS PageViews FROM ${t} WHERE ${dash} AND IsRefresh = 0 AND IsLink <> 0 AND IsDownload = 0 GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10 OFFSET 100` },
  { key: 'dash_sources', shape: 'dashboard: five keys with CASE, OFFSET', sql: (t) => `SELECT TraficSourceID, SearchEngineID, AdvEngineID, CASE WHEN (SearchEngineID = 0 AND AdvEngineID = 0) THEN Referer ELSE '' END AS Src, URL AS Dst, count(*) AS PageViews FROM ${t} WHERE ${dash} AND IsRefresh = 0 GROUP BY TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst ORDER BY PageViews DESC, 1, 2, 3, 4, 5 LIMIT 10 OFFSET 100` },
  { key: 'dash_hashes', shape: 'dashboard: hashes, IN list', sql: (t) => `SELECT URLHash, EventDate, count(*) AS PageViews FROM ${t} WHERE ${dash} AND IsRefresh = 0 AND TraficSourceID IN (-1, 6) GROUP BY URLHash, EventDate ORDER BY PageViews DESC, 1, 2 LIMIT 10 OFFSET 10` },
  { key: 'dash_windows', shape: 'dashboard: window sizes', sql: (t) => `SELECT WindowClientWidth, WindowClientHeight, count(*) AS PageViews FROM ${t} WHERE ${dash} AND IsRefresh = 0 AND DontCountHits = 0 GROUP BY WindowClientWidth, WindowClientHeight ORDER BY PageViews DESC, 1, 2 LIMIT 10 OFFSET 10` },
  { key: 'dash_minutes', shape: 'dashboard: date_trunc() as the key', sql: (t) => `SELECT date_trunc('minute', EventTime) AS m, count(*) AS PageViews FROM ${t} WHERE CounterID = 62 AND EventDate >= DATE '2013-07-14' AND EventDate <= DATE '2013-07-15' AND IsRefresh = 0 AND DontCountHits = 0 GROUP BY date_trunc('minute', EventTime) ORDER BY date_trunc('minute', EventTime) LIMIT 10 OFFSET 100` },
];
