import Testing
import WeatherDomain

/// What an almanac says about one event of a day.
enum Published: Sendable {
    /// It happens at this local clock time (`HH:MM` or `HH:MM:SS`, in the case's `clock` offset).
    case at(String)
    /// The almanac lists no such event that day.
    case absent
}

/// One day at one place as an almanac publishes it; an event left nil was not published.
struct AlmanacDay: Sendable, CustomTestStringConvertible {
    var place: String
    var lat: Double
    var lon: Double
    var date: String
    /// The place's offset from UTC that day (what the provider would report).
    var utcOffsetSeconds: Int64
    /// The offset the published clock times are in (`Z` when the almanac gives UT).
    var clock: String
    var dawn: Published? = nil
    var sunrise: Published? = nil
    var zenith: Published? = nil
    var sunset: Published? = nil
    var dusk: Published? = nil
    /// Where the expected values come from.
    var source: String

    var testDescription: String { "\(place) \(date)" }
}

@Suite("Astronomy: sun and moon against published almanacs")
struct AstronomyTests {
    /// ±2 minutes, the almanacs' own rounding (to the minute) plus the algorithm's error.
    static let tolerance: Int64 = 120_000

    static let almanac: [AlmanacDay] = [
        // geoastro.de, "The Sun" (www.geoastro.de/planets/img/sun.html): Berlin 52.51° N 13.41° E,
        // latest sunrise 2002-12-30 at 07:17.1 UT, earliest sunset 2002-12-14 at 14:52.2 UT.
        AlmanacDay(
            place: "Berlin", lat: 52.51, lon: 13.41, date: "2002-12-30", utcOffsetSeconds: 3600, clock: "Z",
            sunrise: .at("07:17:06"), source: "geoastro.de"),
        AlmanacDay(
            place: "Berlin", lat: 52.51, lon: 13.41, date: "2002-12-14", utcOffsetSeconds: 3600, clock: "Z",
            sunset: .at("14:52:12"), source: "geoastro.de"),
        // Stiftung Planetarium Berlin for Tagesspiegel Checkpoint ("Der kürzeste Tag hat in Berlin 7 Stunden,
        // 40 Minuten und 3 Sekunden"): winter solstice on a Saturday (2024-12-21), Berlin averaged,
        // sunrise 08:14:38, sunset 15:54:41 CET.
        AlmanacDay(
            place: "Berlin", lat: 52.52, lon: 13.405, date: "2024-12-21", utcOffsetSeconds: 3600, clock: "+01:00",
            sunrise: .at("08:14:38"), sunset: .at("15:54:41"), source: "Stiftung Planetarium Berlin"),
        // The New York Times, "New York Today: Hello, Summer", 2016-06-20: sunrise 5:25 a.m., sunset 8:31 p.m.,
        // the Sun highest at 12:57 p.m. EDT.
        AlmanacDay(
            place: "New York", lat: 40.7128, lon: -74.006, date: "2016-06-20", utcOffsetSeconds: -14_400,
            clock: "-04:00", sunrise: .at("05:25"), zenith: .at("12:57"), sunset: .at("20:31"),
            source: "The New York Times"),
        // skylinenews.world (USNO-style column, Washington, D.C.), Monday 2025-01-13: sunrise 7:26 a.m., solar
        // noon 12:17 p.m., sunset 5:08 p.m. EST. (Its "morning/evening twilight", 6:24 and 6:11, are nautical.)
        AlmanacDay(
            place: "Washington", lat: 38.8951, lon: -77.0364, date: "2025-01-13", utcOffsetSeconds: -18_000,
            clock: "-05:00", sunrise: .at("07:26"), zenith: .at("12:17"), sunset: .at("17:08"),
            source: "skylinenews.world"),
        // 10play, The Project, 2023-12-20: on Friday 2023-12-22 "in Sydney the sun will rise at 5.41am and set
        // at 8.06pm" (AEDT, +11).
        AlmanacDay(
            place: "Sydney", lat: -33.8688, lon: 151.2093, date: "2023-12-22", utcOffsetSeconds: 39_600,
            clock: "+11:00", sunrise: .at("05:41"), sunset: .at("20:06"), source: "10play The Project"),
        // Sydney Observatory (maas.museum, "Summer solstice 2008 and the earliest sunrise and the latest sunset",
        // from the 2009 Australian Sky Guide): the Sun rises at 5:37 am from 1 to 10 December 2008, the latest
        // sunset is 20:10 from 2 to 12 January 2009 (AEDT).
        AlmanacDay(
            place: "Sydney Observatory", lat: -33.8594, lon: 151.2048, date: "2008-12-01", utcOffsetSeconds: 39_600,
            clock: "+11:00", sunrise: .at("05:37"), source: "Australian Sky Guide 2009"),
        AlmanacDay(
            place: "Sydney Observatory", lat: -33.8594, lon: 151.2048, date: "2008-12-10", utcOffsetSeconds: 39_600,
            clock: "+11:00", sunrise: .at("05:37"), source: "Australian Sky Guide 2009"),
        AlmanacDay(
            place: "Sydney Observatory", lat: -33.8594, lon: 151.2048, date: "2009-01-02", utcOffsetSeconds: 39_600,
            clock: "+11:00", sunset: .at("20:10"), source: "Australian Sky Guide 2009"),
        AlmanacDay(
            place: "Sydney Observatory", lat: -33.8594, lon: 151.2048, date: "2009-01-12", utcOffsetSeconds: 39_600,
            clock: "+11:00", sunset: .at("20:10"), source: "Australian Sky Guide 2009"),
        // Star 104.5 ("Early to Bed, Late to Rise"), 2017-06-21, "according to Geoscience Australia": sunrise
        // 6.58am, sunset 4.54pm on the Central Coast (Gosford, AEST +10).
        AlmanacDay(
            place: "Gosford", lat: -33.4245, lon: 151.3418, date: "2017-06-21", utcOffsetSeconds: 36_000,
            clock: "+10:00", sunrise: .at("06:58"), sunset: .at("16:54"), source: "Geoscience Australia"),
        // askascientist.nz (Duncan Steel): at mid-winter the Sun rises at 7:00 am and sets at 4:54 pm in Sydney
        // (AEST), at 7:48 am and 4:58 pm in Wellington (NZST, +12). No year given: the June solstice's times
        // move by seconds from year to year; 2024-06-21 is used.
        AlmanacDay(
            place: "Sydney", lat: -33.8688, lon: 151.2093, date: "2024-06-21", utcOffsetSeconds: 36_000,
            clock: "+10:00", sunrise: .at("07:00"), sunset: .at("16:54"), source: "askascientist.nz"),
        AlmanacDay(
            place: "Wellington", lat: -41.2865, lon: 174.7762, date: "2024-06-21", utcOffsetSeconds: 43_200,
            clock: "+12:00", sunrise: .at("07:48"), sunset: .at("16:58"), source: "askascientist.nz"),
        // ishavasya.org, "Sunrise and Sunset": New Delhi, 2025-09-06, IST (+05:30): civil dawn 5:37 am, sunrise
        // 6:01 am, transit 12:18 pm, sunset 6:36 pm, civil dusk 7:00 pm. (Its transit is 1.5 min earlier than
        // the midpoint of its own sunrise and sunset, 12:18:30 or later; ours is 12:19:32.)
        AlmanacDay(
            place: "New Delhi", lat: 28.6139, lon: 77.209, date: "2025-09-06", utcOffsetSeconds: 19_800,
            clock: "+05:30", dawn: .at("05:37"), sunrise: .at("06:01"), zenith: .at("12:18"), sunset: .at("18:36"),
            dusk: .at("19:00"), source: "ishavasya.org"),
        // USNO "Sun and Moon Data for One Day", Tromsø (E19.0, N69.5), Universal Time + 1h, quoted on
        // answers.com ("How many hour of daylight in north Norway in April"): 2014-04-01 civil twilight 03:46,
        // sunrise 04:50, transit 11:48, sunset 18:49, end of civil twilight 19:53; 2014-04-30 sunrise 02:29,
        // transit 11:41, sunset 20:58 and no twilight entries (white night); 2014-05-17 sunrise 00:29, sunset
        // 23:06; 2014-05-18 sunrise 00:13 and no sunset until 23:20 on 2014-07-25.
        AlmanacDay(
            place: "Tromsø", lat: 69.5, lon: 19.0, date: "2014-04-01", utcOffsetSeconds: 3600, clock: "+01:00",
            dawn: .at("03:46"), sunrise: .at("04:50"), zenith: .at("11:48"), sunset: .at("18:49"), dusk: .at("19:53"),
            source: "USNO"),
        AlmanacDay(
            place: "Tromsø", lat: 69.5, lon: 19.0, date: "2014-04-30", utcOffsetSeconds: 3600, clock: "+01:00",
            dawn: .absent, sunrise: .at("02:29"), zenith: .at("11:41"), sunset: .at("20:58"),
            dusk: .absent, source: "USNO"),
        AlmanacDay(
            place: "Tromsø", lat: 69.5, lon: 19.0, date: "2014-05-17", utcOffsetSeconds: 3600, clock: "+01:00",
            sunrise: .at("00:29"), sunset: .at("23:06"), source: "USNO"),
        AlmanacDay(
            place: "Tromsø", lat: 69.5, lon: 19.0, date: "2014-05-18", utcOffsetSeconds: 3600, clock: "+01:00",
            sunrise: .at("00:13"), sunset: .absent, source: "USNO"),
        AlmanacDay(
            place: "Tromsø", lat: 69.5, lon: 19.0, date: "2014-07-25", utcOffsetSeconds: 3600, clock: "+01:00",
            sunrise: .absent, sunset: .at("23:20"), source: "USNO"),
    ]

    @Test("sun times agree with published almanacs to ±2 minutes", arguments: almanac)
    func sunTimes(_ day: AlmanacDay) throws {
        let computed = try #require(
            SolarDay.compute(lat: day.lat, lon: day.lon, localDate: day.date, zone: .fixed(day.utcOffsetSeconds)))
        #expect(LocalDate.string(computed.zenith, zone: .fixed(day.utcOffsetSeconds)) == day.date)
        let events: [(String, Published?, Timestamp?)] = [
            ("dawn", day.dawn, computed.dawn), ("sunrise", day.sunrise, computed.sunrise),
            ("zenith", day.zenith, computed.zenith), ("sunset", day.sunset, computed.sunset),
            ("dusk", day.dusk, computed.dusk),
        ]
        for (name, published, time) in events {
            switch published {
            case nil:
                continue
            case .absent?:
                #expect(time == nil, "\(name): \(day.source) lists none")
            case .at(let clock)?:
                let seconds = clock.count == 5 ? ":00" : ""
                let expected = try #require(Timestamp(rfc3339: "\(day.date)T\(clock)\(seconds)\(day.clock)"))
                let got = try #require(time, "\(name): \(day.source) lists \(clock)")
                #expect(
                    abs(got.milliseconds - expected.milliseconds) <= Self.tolerance,
                    "\(name): computed \(got), \(day.source) says \(expected)")
            }
        }
        #expect(computed.polar == nil, "none of these days is polar")
    }

    // Polar night and day. Tromsø: the Sun "remains below the horizon during the polar night from about
    // 26 November to 15 January" and "the midnight sun occurs from about 18 May to 26 July" (Wikipedia,
    // "Tromsø", Light and darkness); during the polar night (mørketid) the Sun stays less than 6° below the
    // horizon, so there is civil twilight every day: on Sunday 2023-12-10 "fast fünf Stunden bürgerliche
    // Dämmerung" (way-up-north.com, 2023-12-03). Longyearbyen: polar night 26 Oct – 16 Feb, midnight sun
    // 20 Apr – 21 Aug, and "in Svalbard, not even a twilight glow can be seen for over a month"
    // (Lonely Planet, "Midnight Sun & Polar Night").
    static let tromsø = (lat: 69.6492, lon: 18.9553)
    static let longyearbyen = (lat: 78.2232, lon: 15.6267)

    @Test(
        "Tromsø in the polar night: no sunrise or sunset, but civil dawn and dusk",
        arguments: [
            "2025-11-30", "2025-12-21", "2026-01-10",
        ])
    func tromsøPolarNight(date: String) throws {
        let day = try #require(
            SolarDay.compute(lat: Self.tromsø.lat, lon: Self.tromsø.lon, localDate: date, zone: .fixed(3600)))
        #expect(day.polar == .night)
        #expect(day.sunrise == nil && day.sunset == nil)
        let dawn = try #require(day.dawn)
        let dusk = try #require(day.dusk)
        #expect(dawn < day.zenith && day.zenith < dusk)
    }

    @Test("Tromsø: nearly five hours of civil twilight on 2023-12-10")
    func tromsøTwilightLength() throws {
        let day = try #require(
            SolarDay.compute(
                lat: Self.tromsø.lat, lon: Self.tromsø.lon, localDate: "2023-12-10", zone: .fixed(3600)))
        let length = try #require(day.dusk).milliseconds - (try #require(day.dawn)).milliseconds
        #expect((270 * 60_000..<300 * 60_000).contains(length), "\(length / 60_000) min")
    }

    @Test("Tromsø: the last sunrise before the 2025/26 polar night is on 26 November, the first after on 15 January")
    func tromsøPolarNightEdges() throws {
        func polar(_ date: String) throws -> SolarDay.Polar? {
            try #require(
                SolarDay.compute(lat: Self.tromsø.lat, lon: Self.tromsø.lon, localDate: date, zone: .fixed(3600))
            ).polar
        }
        #expect(try polar("2025-11-26") == nil)
        #expect(try polar("2025-11-27") == .night)
        #expect(try polar("2026-01-14") == .night)
        #expect(try polar("2026-01-15") == nil)
    }

    @Test(
        "midnight sun: no sunrise, sunset, dawn or dusk",
        arguments: [
            ("Tromsø", 69.6492, 18.9553), ("Longyearbyen", 78.2232, 15.6267),
        ])
    func polarDay(place: String, lat: Double, lon: Double) throws {
        let day = try #require(SolarDay.compute(lat: lat, lon: lon, localDate: "2025-06-21", zone: .fixed(7200)))
        #expect(day.polar == .day, "\(place)")
        #expect(day.sunrise == nil && day.sunset == nil && day.dawn == nil && day.dusk == nil, "\(place)")
        #expect(LocalDate.string(day.zenith, zone: .fixed(7200)) == "2025-06-21")
    }

    @Test("Longyearbyen at midwinter: polar night without civil twilight")
    func longyearbyenPolarNight() throws {
        let day = try #require(
            SolarDay.compute(
                lat: Self.longyearbyen.lat, lon: Self.longyearbyen.lon, localDate: "2025-12-21", zone: .fixed(3600)))
        #expect(day.polar == .night)
        #expect(day.sunrise == nil && day.sunset == nil && day.dawn == nil && day.dusk == nil)
    }

    @Test("solar noon falls on the local date even far from the offset's meridian (Kiritimati +14, Apia +13)")
    func localDateAtLargeOffsets() throws {
        for (lat, lon, offset) in [(1.87, -157.43, Int64(50_400)), (-13.83, -171.76, 46_800), (52.52, 13.405, -43_200)]
        {
            for date in ["2025-01-01", "2025-06-21", "2025-12-31"] {
                let day = try #require(SolarDay.compute(lat: lat, lon: lon, localDate: date, zone: .fixed(offset)))
                #expect(LocalDate.string(day.zenith, zone: .fixed(offset)) == date)
                let sunrise = try #require(day.sunrise)
                let sunset = try #require(day.sunset)
                #expect(sunrise < day.zenith && day.zenith < sunset)
            }
        }
    }

    @Test("a malformed local date gives nothing", arguments: ["2025-13-01", "2025-02-30", "2025-1-01", "", "tomorrow"])
    func malformedDate(date: String) {
        #expect(SolarDay.compute(lat: 52.52, lon: 13.405, localDate: date, zone: .fixed(3600)) == nil)
        #expect(MoonPhase.onLocalDate(date, zone: .fixed(3600)) == nil)
    }

    // Moon. Full moons of 2025 in UTC, from wondersinspace.com's 2025 calendar (GMT/BST, converted): 13 Jan
    // 22:27, 12 Feb 13:53, 14 Mar 06:55, 13 Apr 00:22 (also The Week: "8:22 p.m. EST (0:22 UTC) on Saturday,
    // April 12"), 12 May 16:56, 11 Jun 07:44, 10 Jul 20:37, 9 Aug 07:55, 7 Sep 18:09, 7 Oct 03:48, 5 Nov
    // 13:19, 4 Dec 23:14; 2026-03-03: total lunar eclipse, greatest at 11:33 UTC (timeanddate via
    // The News, 2026-03-02; the full moon itself is within minutes of it).
    static let fullMoons = [
        "2025-01-13T22:27:00Z", "2025-02-12T13:53:00Z", "2025-03-14T06:55:00Z", "2025-04-13T00:22:00Z",
        "2025-05-12T16:56:00Z", "2025-06-11T07:44:00Z", "2025-07-10T20:37:00Z", "2025-08-09T07:55:00Z",
        "2025-09-07T18:09:00Z", "2025-10-07T03:48:00Z", "2025-11-05T13:19:00Z", "2025-12-04T23:14:00Z",
        "2026-03-03T11:33:00Z",
    ]

    // New moons in UTC: 2025-02-28 00:45 ("7:45 p.m. EST (00:45 GMT on Feb. 28)", todaysbid.net); 2025-09-21
    // 19:54 (space.com, "New moon of August 2025 gets eclipsed today"); 2025-10-21 12:25 ("8:25 a.m. EDT
    // (1225 UTC), according to the U.S. Naval Observatory", localnewswave.com); 2026-08-12: total solar
    // eclipse, greatest at 17:47:06 UTC (Wikipedia, "Solar eclipse of August 12, 2026").
    static let newMoons = [
        "2025-02-28T00:45:00Z", "2025-09-21T19:54:00Z", "2025-10-21T12:25:00Z", "2026-08-12T17:47:06Z",
    ]

    @Test("at a published full moon the phase is 0.5 and the Moon about 14-16 days old", arguments: fullMoons)
    func fullMoonInstant(_ instant: String) throws {
        let moon = MoonPhase.at(try #require(Timestamp(rfc3339: instant)))
        // 0.002 of a lunation is about an hour and a half.
        #expect(abs(moon.phase - 0.5) < 0.002, "phase \(moon.phase)")
        #expect((13.5...16).contains(moon.age), "age \(moon.age)")
    }

    @Test("at a published new moon the phase is 0 (or 1) and the age 0 (or a whole lunation)", arguments: newMoons)
    func newMoonInstant(_ instant: String) throws {
        let moon = MoonPhase.at(try #require(Timestamp(rfc3339: instant)))
        #expect(min(moon.phase, 1 - moon.phase) < 0.002, "phase \(moon.phase)")
        #expect(moon.age < 0.1 || moon.age > 29.2, "age \(moon.age)")
    }

    @Test("on the local date of a full or new moon, local noon's phase is within 0.02 of it")
    func phaseOnLocalDates() throws {
        let places: [Int64] = [3600, -18_000, 39_600, 19_800, 46_800]
        for offset in places {
            for instant in Self.fullMoons {
                let time = try #require(Timestamp(rfc3339: instant))
                let date = LocalDate.string(time, zone: .fixed(offset))
                let moon = try #require(MoonPhase.onLocalDate(date, zone: .fixed(offset)))
                #expect(abs(moon.phase - 0.5) <= 0.02, "full moon \(instant) on \(date) at \(offset): \(moon.phase)")
            }
            for instant in Self.newMoons {
                let time = try #require(Timestamp(rfc3339: instant))
                let date = LocalDate.string(time, zone: .fixed(offset))
                let moon = try #require(MoonPhase.onLocalDate(date, zone: .fixed(offset)))
                #expect(
                    min(moon.phase, 1 - moon.phase) <= 0.02,
                    "new moon \(instant) on \(date) at \(offset): \(moon.phase)")
            }
        }
    }

    @Test("the phase grows steadily from 0 to 1 and the age with it, then both start again")
    func phaseProgression() throws {
        let start = try #require(Timestamp(rfc3339: "2025-01-01T00:00:00Z"))
        var previous = MoonPhase.at(start)
        var wraps = 0
        for hour in 1...(24 * 366) {
            let moon = MoonPhase.at(Timestamp(milliseconds: start.milliseconds + Int64(hour) * 3_600_000))
            #expect((0..<1).contains(moon.phase) && (0..<29.9).contains(moon.age))
            if moon.phase < previous.phase {
                wraps += 1
                #expect(moon.age < 1 / 24 + 1e-9 && previous.phase > 0.99)
            } else {
                #expect(moon.age > previous.age)
            }
            previous = moon
        }
        #expect(wraps == 12, "new moons in the year from 2025-01-01")
    }
}
