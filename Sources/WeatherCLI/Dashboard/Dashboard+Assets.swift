extension Dashboard {
    /// The page's style: system fonts, light and dark by `prefers-color-scheme`, one column on a phone.
    static let style = """
        :root { color-scheme: light dark; --bg: #f8fafc; --card: #ffffff; --text: #1f2937; --faint: #64748b;
          --line: #e2e8f0; --accent: #b45309; --warn: #b91c1c; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0f172a; --card: #1e293b; --text: #e2e8f0; --faint: #94a3b8; --line: #334155;
            --accent: #fbbf24; --warn: #fca5a5; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 1rem; background: var(--bg); color: var(--text);
          font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        header, footer { max-width: 64rem; margin: 0 auto; }
        header h1 { margin: 0; font-size: 1.4rem; }
        #live, footer, .source, small { color: var(--faint); font-size: 0.9rem; }
        main { max-width: 64rem; margin: 1rem auto; display: grid; gap: 1rem;
          grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); }
        .place { background: var(--card); border: 1px solid var(--line); border-radius: 0.75rem; padding: 1rem;
          overflow-wrap: anywhere; }
        .place h2 { margin: 0 0 0.5rem; font-size: 1.25rem; }
        .place h3 { margin: 0.9rem 0 0.25rem; font-size: 0.95rem; color: var(--faint); text-transform: uppercase;
          letter-spacing: 0.04em; }
        .place p, .place ul, .place ol { margin: 0.25rem 0; }
        .place ol, .place ul { padding-left: 1.25rem; }
        .now .temperature { font-size: 2rem; }
        .symbol { font-size: 1.3em; }
        .sparkline { font-family: "DejaVu Sans Mono", monospace; letter-spacing: -0.05em; }
        .stale, .missing { color: var(--accent); }
        .warnings strong { color: var(--warn); }
        .day { display: inline-block; min-width: 4.5rem; font-weight: 600; }
        .chart { grid-column: 1 / -1; margin: 0.5rem 0 0; }
        .chart svg { width: 100%; height: auto; border-radius: 0.5rem; background: #ffffff; }
        .empty { grid-column: 1 / -1; }
        """

    /// The page's script: follow `/v1/events` from the seq the page was rendered at, and on each event that
    /// changes what it shows, fetch the places again (one fetch at a time; events meanwhile cause one more).
    static let script = """
        (() => {
          "use strict";
          const main = document.getElementById("places");
          const live = document.getElementById("live");
          const types = main.dataset.types.split(",");
          let lastSeq = main.dataset.seq;
          let running = false;
          let again = false;
          const say = (text) => { live.textContent = text; };
          async function refresh() {
            if (running) { again = true; return; }
            running = true;
            try {
              do {
                again = false;
                const response = await fetch("/:dashboard", { headers: { Accept: "text/html" }, cache: "no-store" });
                if (!response.ok) { say("Not updated: the service answered " + response.status + "."); break; }
                main.innerHTML = await response.text();
                main.dataset.seq = lastSeq;
                say("Live; updated at " + new Date().toLocaleTimeString() + ".");
              } while (again);
            } catch (error) {
              say("Not updated: " + error.message);
            } finally {
              running = false;
            }
          }
          const source = new EventSource("/v1/events?after=" + lastSeq + "&types=" + types.join(","));
          for (const type of types) {
            source.addEventListener(type, (event) => { lastSeq = event.lastEventId; refresh(); });
          }
          source.addEventListener("open", () => say("Live."));
          source.addEventListener("error", () => say("Reconnecting to weatherd…"));
        })();
        """
}
