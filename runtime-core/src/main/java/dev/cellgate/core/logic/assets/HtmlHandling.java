package dev.cellgate.core.logic.assets;

/**
 * Which file a decoded pathname resolves to, by {@code html_handling}, and the redirect that makes a
 * pathname canonical; then {@code not_found_handling} when nothing matched. This is Cloudflare's
 * asset resolution, rule for rule:
 * <ul>
 *   <li>{@code auto-trailing-slash}: {@code /a} serves {@code /a.html}; {@code /a/} serves
 *       {@code /a/index.html}; the other spellings of those files redirect to the canonical one;</li>
 *   <li>{@code force-trailing-slash}: every HTML page is canonical with a trailing slash;</li>
 *   <li>{@code drop-trailing-slash}: every HTML page is canonical without one;</li>
 *   <li>{@code none}: exact paths only.</li>
 * </ul>
 * A redirect is only taken when its destination resolves to the same bytes (ETag) as the file the
 * request named, and the destination is not itself a file.
 */
public final class HtmlHandling {

    /**
     * What a pathname resolves to: a file (with its status: 200, or 404 for a {@code 404.html}), or a
     * redirect to a canonical pathname (decoded).
     *
     * @param notFound the file came from not_found_handling, not from the pathname
     */
    public record Intent(String file, AssetEntry asset, int status, String redirect, boolean notFound) {
        static Intent serve(String file, AssetEntry asset) {
            return new Intent(file, asset, 200, null, false);
        }

        static Intent redirectTo(String destination) {
            return new Intent(null, null, 0, destination, false);
        }
    }

    private final String htmlHandling;
    private final String notFoundHandling;
    private final AssetLookup files;

    public HtmlHandling(String htmlHandling, String notFoundHandling, AssetLookup files) {
        this.htmlHandling = htmlHandling;
        this.notFoundHandling = notFoundHandling;
        this.files = files;
    }

    /** The same resolution with another not_found_handling (the router asks "is there an asset?" without the fallback). */
    public HtmlHandling withNotFoundHandling(String handling) {
        return new HtmlHandling(htmlHandling, handling, files);
    }

    /** @return the intent, or null when nothing (not even a fallback) matches */
    public Intent resolve(String pathname) {
        return resolve(pathname, false);
    }

    private Intent resolve(String p, boolean skipRedirects) {
        return switch (htmlHandling) {
            case "auto-trailing-slash" -> auto(p, skipRedirects);
            case "force-trailing-slash" -> force(p, skipRedirects);
            case "drop-trailing-slash" -> drop(p, skipRedirects);
            case "none" -> exact(p) != null ? exact(p) : notFound(p);
            default -> throw new IllegalArgumentException("html_handling " + htmlHandling);
        };
    }

    private Intent exact(String path) {
        AssetEntry e = files.get(path);
        return e == null ? null : Intent.serve(path, e);
    }

    private Intent auto(String p, boolean skip) {
        Intent r;
        Intent exact = exact(p);
        if (p.endsWith("/index")) {
            if (exact != null) {
                return exact;
            }
            if ((r = safeRedirect(p + ".html", cut(p, 5), skip)) != null
                    || (r = safeRedirect(cut(p, 6) + ".html", cut(p, 6), skip)) != null) {
                return r;
            }
        } else if (p.endsWith("/index.html")) {
            if ((r = safeRedirect(p, cut(p, 10), skip)) != null
                    || (r = safeRedirect(cut(p, 11) + ".html", cut(p, 11), skip)) != null) {
                return r;
            }
        } else if (p.endsWith("/")) {
            Intent index = exact(p + "index.html");
            if (index != null) {
                return index;
            }
            if ((r = safeRedirect(cut(p, 1) + ".html", cut(p, 1), skip)) != null) {
                return r;
            }
        } else if (p.endsWith(".html")) {
            if ((r = safeRedirect(p, cut(p, 5), skip)) != null
                    || (r = safeRedirect(cut(p, 5) + "/index.html", cut(p, 5) + "/", skip)) != null) {
                return r;
            }
        }
        if (exact != null) {
            return exact;
        }
        Intent html = exact(p + ".html");
        if (html != null) {
            return html;
        }
        r = safeRedirect(p + "/index.html", p + "/", skip);
        return r != null ? r : notFound(p);
    }

    private Intent force(String p, boolean skip) {
        Intent r;
        Intent exact = exact(p);
        if (p.endsWith("/index")) {
            if (exact != null) {
                return exact;
            }
            if ((r = safeRedirect(p + ".html", cut(p, 5), skip)) != null
                    || (r = safeRedirect(cut(p, 6) + ".html", cut(p, 5), skip)) != null) {
                return r;
            }
        } else if (p.endsWith("/index.html")) {
            if ((r = safeRedirect(p, cut(p, 10), skip)) != null
                    || (r = safeRedirect(cut(p, 11) + ".html", cut(p, 10), skip)) != null) {
                return r;
            }
        } else if (p.endsWith("/")) {
            Intent index = exact(p + "index.html");
            if (index != null) {
                return index;
            }
            Intent html = exact(cut(p, 1) + ".html");
            if (html != null) {
                return html;
            }
        } else if (p.endsWith(".html")) {
            if ((r = safeRedirect(p, cut(p, 5) + "/", skip)) != null) {
                return r;
            }
            if (exact != null) {
                return exact;
            }
            if ((r = safeRedirect(cut(p, 5) + "/index.html", cut(p, 5) + "/", skip)) != null) {
                return r;
            }
        }
        if (exact != null) {
            return exact;
        }
        if ((r = safeRedirect(p + ".html", p + "/", skip)) != null
                || (r = safeRedirect(p + "/index.html", p + "/", skip)) != null) {
            return r;
        }
        return notFound(p);
    }

    private Intent drop(String p, boolean skip) {
        Intent r;
        Intent exact = exact(p);
        if (p.endsWith("/index")) {
            if (exact != null) {
                return exact;
            }
            if (p.equals("/index")) {
                if ((r = safeRedirect("/index.html", "/", skip)) != null) {
                    return r;
                }
            } else if ((r = safeRedirect(cut(p, 6) + ".html", cut(p, 6), skip)) != null
                    || (r = safeRedirect(p + ".html", cut(p, 6), skip)) != null) {
                return r;
            }
        } else if (p.endsWith("/index.html")) {
            if (p.equals("/index.html")) {
                if ((r = safeRedirect("/index.html", "/", skip)) != null) {
                    return r;
                }
            } else {
                if ((r = safeRedirect(p, cut(p, 11), skip)) != null) {
                    return r;
                }
                if (exact != null) {
                    return exact;
                }
                if ((r = safeRedirect(cut(p, 11) + ".html", cut(p, 11), skip)) != null) {
                    return r;
                }
            }
        } else if (p.endsWith("/")) {
            if (p.equals("/")) {
                Intent index = exact("/index.html");
                if (index != null) {
                    return index;
                }
            } else if ((r = safeRedirect(cut(p, 1) + ".html", cut(p, 1), skip)) != null
                    || (r = safeRedirect(cut(p, 1) + "/index.html", cut(p, 1), skip)) != null) {
                return r;
            }
        } else if (p.endsWith(".html")) {
            if ((r = safeRedirect(p, cut(p, 5), skip)) != null
                    || (r = safeRedirect(cut(p, 5) + "/index.html", cut(p, 5), skip)) != null) {
                return r;
            }
        }
        if (exact != null) {
            return exact;
        }
        Intent html = exact(p + ".html");
        if (html != null) {
            return html;
        }
        Intent index = exact(p + "/index.html");
        return index != null ? index : notFound(p);
    }

    /** not_found_handling: the SPA's /index.html (200), or the nearest 404.html up the tree (404). */
    private Intent notFound(String p) {
        switch (notFoundHandling) {
            case "single-page-application": {
                AssetEntry index = files.get("/index.html");
                return index == null ? null : new Intent("/index.html", index, 200, null, true);
            }
            case "404-page": {
                String cwd = p;
                while (!cwd.isEmpty()) {
                    cwd = cwd.substring(0, Math.max(0, cwd.lastIndexOf('/')));
                    AssetEntry page = files.get(cwd + "/404.html");
                    if (page != null) {
                        return new Intent(cwd + "/404.html", page, 404, null, true);
                    }
                }
                return null;
            }
            default:
                return null;
        }
    }

    /**
     * A redirect to {@code destination} when it is not a file itself and resolves (without
     * redirects) to the same bytes as {@code file}.
     */
    private Intent safeRedirect(String file, String destination, boolean skip) {
        if (skip || files.get(destination) != null) {
            return null;
        }
        Intent there = resolve(destination, true);
        AssetEntry named = files.get(file);
        if (there != null && there.asset() != null && named != null && there.asset().etag().equals(named.etag())) {
            return Intent.redirectTo(destination);
        }
        return null;
    }

    private static String cut(String s, int n) {
        return s.substring(0, s.length() - n);
    }
}
