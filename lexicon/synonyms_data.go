package lexicon

// synonymData holds the synonym groups, one per line, members separated by
// commas. Members are lower case, with single spaces inside phrases and no
// '-' or '_'. A term may appear in several groups; its synonyms are the
// union of them. Keep groups small and their links strong: every member of
// a group is offered as an alternative for every other.
const synonymData = `
rate limit, ratelimit, rate limiter, ratelimiter, rate limiting, throttle, throttling, quota
throttle, debounce
auth, authentication, authenticate, authenticator, authn, login, signin, sign in, credential, credentials
auth, authorization, authorize, authz
authorization, authorize, authz, permission, permissions, access control, acl, rbac, role, roles, privilege
session, sessions, login, signin
logout, log out, signout, sign out
signup, sign up, register, registration
oauth, oauth2, openid, oidc, sso, single sign on
mfa, 2fa, two factor, otp, totp
token, tokens, jwt, bearer, access token
refresh token, refreshtoken, refresh
password, passwd, pwd, passphrase
secret, secrets, api key, apikey, credential
encrypt, encryption, encrypted, decrypt, decryption, cipher, crypto, cryptography
hash, hashing, hashed, digest, checksum
signature, sign, signing, hmac
certificate, cert, certs, tls, ssl, x509
delete, deletion, remove, removal, destroy, erase, purge
create, creation, add, insert, new
update, modify, edit, change, patch
get, fetch, retrieve, read, load
save, persist, store, write
cache, caching, cached, memoize, memoization, memo
invalidate, invalidation, evict, eviction, expire
retry, retries, retrying, backoff, reattempt
config, configuration, configure, settings, setting, options, preferences, conf, cfg
expiry, expire, expires, expired, expiration, ttl, timeout
timeout, timeouts, timed out, time out, deadline
error, errors, exception, exceptions, failure, fault, err
bug, bugs, defect, regression, broken
fix, fixes, repair, patch, resolve, bugfix, hotfix
crash, crashes, panic, abort, segfault, fatal
warning, warn, warnings
endpoint, endpoints, route, routes, api
router, routing, route, routes
handler, handlers, controller
controller, handler, view
middleware, interceptor
request, requests, req, http request
response, responses, resp, http response
http, https, rest
header, headers
cookie, cookies
cors, cross origin
csrf, xsrf
redirect, redirects, redirection
proxy, reverse proxy, gateway
url, urls, uri, link, href
log, logs, logger, logging
debug, debugging, debugger
metric, metrics, telemetry, monitoring, instrumentation
trace, tracing, span
db, database, databases, datastore, sql
query, queries, sql
transaction, transactions, commit, rollback
migrate, migration, migrations, schema
model, models, entity, orm
index, indexes, indices, indexing
test, tests, testing, spec, unittest, unit test
mock, mocks, stub, fake
fixture, fixtures
user, users, account, accounts, member, members
admin, administrator, superuser
tenant, tenants, organization, org
serialize, serialization, serializer, marshal, encode, stringify
deserialize, deserialization, deserializer, unmarshal, decode, parse
parse, parser, parsing
encoding, charset, unicode, utf8
escape, escaping, sanitize, sanitization
queue, queues, enqueue, dequeue, job queue, message queue
job, jobs, task, tasks, worker, workers, background job
schedule, scheduler, scheduled, cron, periodic
upload, uploads, attachment, attachments, multipart
download, downloads
file, files, filesystem, fs
path, paths, filepath, filename
directory, directories, folder, folders, dir
email, emails, mail, mailer, smtp
notify, notification, notifications, alert, alerts
message, messages, msg
event, events, emit, dispatch, signal
subscribe, subscription, subscriber, observer, listener
publish, publisher, pubsub, broadcast
hook, hooks, callback, callbacks, listener
webhook, webhooks
search, find, lookup, query
filter, filters, filtering
sort, sorting, sorted, order, ordering
paginate, pagination, paginator, paging, page, cursor, offset
limit, limits, cap, max
validate, validation, validator, check, verify, verification
format, formatting, formatter
render, rendering, display, draw
print, printing, output
connect, connection, connections, socket, conn
disconnect, reconnect
websocket, websockets, ws, realtime, real time
install, installation, installer, setup
start, startup, boot, bootstrap, init, initialize, initialization
shutdown, close, teardown, cleanup, dispose
slow, performance, latency, perf, speed, bottleneck
optimize, optimization, speedup, speed up, faster
leak, leaks, memory leak
memory, ram, heap, allocation, oom, out of memory
async, asynchronous, await, promise, future, coroutine
concurrent, concurrency, parallel, parallelism, thread, threads, threading, goroutine
lock, locks, locking, mutex, semaphore
race, race condition, data race
deadlock, hang, hangs, freeze, stuck
loop, infinite loop
sync, synchronize, synchronization
stream, streams, streaming
buffer, buffers, buffering
compress, compression, decompress, gzip, zip
backup, restore, snapshot
copy, clone
merge, combine
split, partition, chunk
compare, comparison, comparator
diff, difference, delta
duplicate, duplicates, dedupe, deduplicate, deduplication
rename, renaming
date, dates, datetime, timestamp
time, clock
timezone, time zone, tz, utc
duration, interval, elapsed
string, strings, str, text
integer, int, int64, int32
float, double, decimal
boolean, bool
array, arrays, slice, vector
dict, dictionary, map, hashmap, hash map
null, nil, none, undefined, nullptr
empty, blank
function, functions, func, method, methods
parameter, parameters, param, params, argument, arguments, arg, args
field, fields, attribute, attributes, property, properties, attr, prop, props
module, modules, package, packages, library, lib
dependency, dependencies, deps, requirement, requirements
version, versions, semver
deploy, deployment, release, rollout
build, compile, compilation, compiler
docker, container, containers
env, environment, environment variable, env var
cli, command line, terminal, shell
regex, regexp, regular expression, pattern
i18n, internationalization, localization, l10n, translation, locale
a11y, accessibility
ui, user interface, frontend
backend, server
client, sdk
graphql, gql
grpc, rpc, protobuf
template, templates, templating
form, forms
component, components, widget, widgets
state, stateful, state management, redux
refresh, reload, renew
image, images, picture, photo, img, thumbnail
icon, icons
modal, dialog, popup
button, buttons, btn
keyboard, shortcut, hotkey, keybinding
theme, themes, dark mode
plot, plots, plotting, chart, charts, graph, figure, visualization
axis, axes
legend, legends
color, colour, colors, colormap, cmap
matrix, matrices, ndarray, tensor
dataframe, data frame
column, columns, col
row, rows, record, records
nan, missing value
payment, payments, billing, invoice, checkout
`
