import Testing
import WeatherCLI
import WeatherDomain

@Suite("weatherd events: one line per event")
struct EventsLineTests {
    @Test("a rename shows the favorite's new name and what changed; an addition its name")
    func rename() throws {
        let renamed = try JSONValue.parse(
            #"{"seq":7,"ts":"2026-11-27T06:00:00.000Z","type":"favorite.updated","cause":"conn:1/rpc:3","#
                + #""data":{"changed":["name"],"favorite":{"addedAt":"2026-11-27T05:00:00.000Z","id":"fav-1","#
                + #""lat":52.52,"lon":13.405,"name":"Home","notify":true}}}"#)
        #expect(
            EventsCommand.line(renamed)
                == "7  2026-11-27T06:00:00.000Z  favorite.updated  conn:1/rpc:3  changed=name name=Home id=fav-1")
        let added = try JSONValue.parse(
            #"{"seq":2,"ts":"2026-11-27T05:00:00.000Z","type":"favorite.added","cause":"conn:1/rpc:1","#
                + #""data":{"addedAt":"2026-11-27T05:00:00.000Z","id":"fav-1","lat":52.52,"lon":13.405,"#
                + #""name":"Berlin","notify":true}}"#)
        #expect(
            EventsCommand.line(added)
                == "2  2026-11-27T05:00:00.000Z  favorite.added  conn:1/rpc:1  name=Berlin id=fav-1")
    }
}
