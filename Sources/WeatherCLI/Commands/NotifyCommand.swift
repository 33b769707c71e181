import WeatherDomain
import WeatherService

/// `weatherd notify`: the alerts as desktop notifications, and a command run for each.
enum NotifyCommand {
    /// `--exec CMD`: a command run for each alert.
    static let exec = CommandOption(
        "--exec", value: .text("CMD"), help: "run CMD with /bin/sh -c for each alert, its JSON on standard input")
    /// `--no-desktop`: no desktop notifications (with `--exec`).
    static let noDesktop = CommandOption("--no-desktop", help: "show no desktop notification (needs --exec)")

    static let command = Command(
        name: "notify", summary: "shows each alert as a desktop notification, and runs a command for each (--exec)",
        details: """
            Runs until interrupted, beside the data dir's daemon. Shows each alert raised (temperature drop,
            severe weather, official warnings, the daily summary, air quality) as a desktop notification
            through org.freedesktop.Notifications on the session bus (DBUS_SESSION_BUS_ADDRESS), in the
            settings' units or those --units names. An official warning raised again at a higher severity
            replaces its notification; one cancelled or expired closes it.

            --exec CMD runs CMD with /bin/sh -c once per alert: the alert's JSON on its standard input, and
            WEATHERD_ALERT_RULE, WEATHERD_SEVERITY, WEATHERD_PLACE and WEATHERD_TEXT in its environment; at most
            4 at a time, each stopped after 30 s (SIGTERM, then SIGKILL 5 s later); a run that fails is logged
            on standard error with its exit status and the end of its standard error, and those that exit 0 are
            counted, the count said when notify ends. --no-desktop (with --exec) leaves the desktop out, and
            needs no session bus.

            Nothing is shown twice: where it stands is kept in $XDG_STATE_HOME/weatherd/ (else
            ~/.local/state/weatherd/), one file per data dir, written before an alert is shown. Alerts missed
            for more than an hour are passed over, except official warnings still in force.

            Exit status: 69 when there is no session bus, no notification server on it, or no daemon.

            example:
              weatherd notify --exec 'curl -d "$WEATHERD_TEXT" ntfy.sh/mytopic'
            """,
        options: [exec.option, noDesktop.option, SharedOptions.units.option],
        check: { invocation in
            if invocation[noDesktop], invocation[exec] == nil {
                throw UsageError("--no-desktop needs --exec: with neither, nothing would be told")
            }
            if invocation[exec]?.isEmpty == true { throw UsageError("--exec needs a command") }
        }
    ) { context in
        try await Notifier(context: context).run()
    }
}
