# cairn's VCL for Varnish 7.1+ with the xkey vmod (Debian: varnish, varnish-modules).
#
# It speaks the protocol of ibexa/http-cache and FOSHttpCache, so cairn's answers and purges
# work with it as with the reference's own VCL:
# - answers are tagged in the `xkey` header; `PURGEKEYS` with `xkey-purge` (removed at once)
#   or `xkey-softpurge` (kept stale for grace) drops them by tag, `PURGE` drops one URL;
#   only the `invalidators` may;
# - before a GET or HEAD is looked up, the user context hash of its caller is fetched from
#   /_fos_user_context_hash (itself cached per session or credentials) and the request
#   restarted with it in `X-User-Context-Hash`: cairn's answers vary on that header, so the
#   callers with the same Roles share them;
# - `X-Cache: HIT|MISS` and the tags are shown to the `debuggers` only.
# docs/varnish/README.md says how to run it.

vcl 4.1;

import std;
import xkey;
import cookie;

# The cairn server (cairn serve --listen). The only line to adapt; tests replace it. BACKEND
backend cairn { .host = "127.0.0.1"; .port = "8080"; }

# Who may purge: the machines cairn runs on (its --purge-url points here).
acl invalidators {
    "127.0.0.1";
    "::1";
}

# Who sees X-Cache and the tags of each answer.
acl debuggers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.restarts == 0) {
        # Several Accept headers made one, so that the check below sees them all.
        std.collect(req.http.Accept);
        # The hash is Varnish's to fetch: a client that sends one, or asks for one, is refused.
        if (req.http.X-User-Context-Hash
            || req.http.Accept ~ "application/vnd\.fos\.user-context-hash") {
            return (synth(400, "User context hash in a client request"));
        }
        # Remembers the original request across the restart of the hash lookup.
        unset req.http.X-Cairn-Url;
        unset req.http.X-Cairn-Accept;
    }

    call cairn_invalidate;

    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }

    # Credentials in the request: looked up as they are; cairn varies such answers on
    # Authorization, so each caller has his own (as the reference's VCL does).
    if (req.http.Authorization) {
        return (hash);
    }

    # Only the session cookie (eZSESSID...) and ibexa-* cookies reach cairn: any other
    # (trackers and the like) would make each caller's answer different.
    if (req.http.Cookie) {
        cookie.parse(req.http.Cookie);
        cookie.keep_re("^(eZSESSID|ibexa-)");
        set req.http.Cookie = regsub(cookie.get_string(), ";$", "");
        if (req.http.Cookie == "") {
            unset req.http.Cookie;
        }
    }

    set req.url = std.querysort(req.url);

    call cairn_user_context;
    return (hash);
}

# PURGEKEYS (by tag) and PURGE (by URL), from the invalidators only.
sub cairn_invalidate {
    if (req.method != "PURGEKEYS" && req.method != "PURGE") {
        return;
    }
    if (client.ip !~ invalidators) {
        return (synth(405, "Not an invalidator"));
    }
    if (req.method == "PURGE") {
        return (purge);
    }
    if (!req.http.xkey-purge && !req.http.xkey-softpurge) {
        return (synth(400, "PURGEKEYS without xkey-purge or xkey-softpurge"));
    }
    set req.http.X-Purged = 0;
    set req.http.X-Expired = 0;
    if (req.http.xkey-purge) {
        set req.http.X-Purged = xkey.purge(req.http.xkey-purge);
    }
    if (req.http.xkey-softpurge) {
        set req.http.X-Expired = xkey.softpurge(req.http.xkey-softpurge);
    }
    return (synth(200, "Purged " + req.http.X-Purged + ", expired " + req.http.X-Expired));
}

# First pass: look up the caller's hash instead (vcl_deliver restarts with it).
# Second pass: the original request again, now with X-User-Context-Hash.
sub cairn_user_context {
    if (req.restarts == 0) {
        set req.http.X-Cairn-Url = req.url;
        if (req.http.Accept) {
            set req.http.X-Cairn-Accept = req.http.Accept;
        }
        set req.url = "/_fos_user_context_hash";
        set req.http.Accept = "application/vnd.fos.user-context-hash";
    } else if (req.http.X-Cairn-Url) {
        set req.url = req.http.X-Cairn-Url;
        unset req.http.X-Cairn-Url;
        if (req.http.X-Cairn-Accept) {
            set req.http.Accept = req.http.X-Cairn-Accept;
            unset req.http.X-Cairn-Accept;
        } else {
            unset req.http.Accept;
        }
    }
}

sub vcl_backend_response {
    # A failing hash lookup is not kept: the client gets a 503 and the next one tries again.
    if (bereq.http.Accept ~ "application/vnd\.fos\.user-context-hash" && beresp.status >= 500) {
        return (abandon);
    }
    # Kept beyond their TTL: served stale while refreshed (and while cairn is down), and
    # revalidated with their ETag. A purge by xkey-purge removes them all the same.
    set beresp.grace = 1h;
    set beresp.keep = 10m;
}

sub vcl_deliver {
    # The hash answer: copied into the original request, which starts again.
    if (req.restarts == 0 && req.http.X-Cairn-Url
        && resp.http.Content-Type ~ "application/vnd\.fos\.user-context-hash") {
        set req.http.X-User-Context-Hash = resp.http.X-User-Context-Hash;
        return (restart);
    }

    # The hash is Varnish's business: not announced downstream, where nothing could vary
    # on it; and an answer for a session is no other cache's to keep.
    if (resp.http.Vary ~ "(?i)X-User-Context-Hash") {
        set resp.http.Vary = regsuball(resp.http.Vary, "(?i)(^|,) *X-User-Context-Hash *", "");
        set resp.http.Vary = regsub(resp.http.Vary, "^ *, *", "");
        if (resp.http.Vary == "") {
            unset resp.http.Vary;
        }
        if (req.http.Cookie) {
            set resp.http.Cache-Control = "private, no-cache, no-store, must-revalidate";
        }
    }

    if (client.ip ~ debuggers) {
        if (obj.hits > 0) {
            set resp.http.X-Cache = "HIT";
            set resp.http.X-Cache-Hits = obj.hits;
        } else {
            set resp.http.X-Cache = "MISS";
        }
    } else {
        unset resp.http.xkey;
        unset resp.http.X-User-Context-Hash;
    }
}
