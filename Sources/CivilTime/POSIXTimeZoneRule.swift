/// A POSIX `TZ` rule such as `EST5EDT,M3.2.0,M11.1.0` or `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`: the
/// footer of a TZif file, which gives the offsets after its last stored transition (POSIX.1-2017 §8.3,
/// with RFC 8536's extensions: hours of a transition time from -167 to 167).
public struct POSIXTimeZoneRule: Sendable, Equatable {
    /// Seconds east of UTC in standard time.
    public var standardOffset: Int
    /// Seconds east of UTC in daylight time, and when it starts and ends; `nil` for a zone without.
    public var daylight: Daylight?

    /// Daylight time: its offset and the two yearly changes.
    public struct Daylight: Sendable, Equatable {
        /// Seconds east of UTC in daylight time.
        public var offset: Int
        /// When daylight time starts, in local standard time.
        public var start: Change
        /// When it ends, in local daylight time.
        public var end: Change
    }

    /// A yearly change: a day of the year and a local time of day on it.
    public struct Change: Sendable, Equatable {
        /// Which day of a year.
        public enum Day: Sendable, Equatable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julianWithoutLeapDay(Int)
            /// `n`: day 0…365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (1…5, 5 the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        /// The day.
        public var day: Day
        /// Seconds after that day's local midnight (default 2:00).
        public var secondOfDay: Int

        /// The change's local seconds since 1970 (its local clock read as if it were UTC) in `year`.
        func localSeconds(in year: Int) -> Int64 {
            let dayNumber: Int
            switch day {
            case .julianWithoutLeapDay(let number):
                let january1 = LocalDay(year: year, month: 1, day: 1).number
                dayNumber = january1 + number - 1 + (isLeap(year) && number >= 60 ? 1 : 0)
            case .zeroBased(let number):
                dayNumber = LocalDay(year: year, month: 1, day: 1).number + number
            case .monthWeekDay(let month, let week, let weekday):
                let first = LocalDay(year: year, month: month, day: 1)
                var dayOfMonth = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
                let length =
                    LocalDay(year: month == 12 ? year + 1 : year, month: month % 12 + 1, day: 1).number
                    - first.number
                while dayOfMonth > length { dayOfMonth -= 7 }
                dayNumber = first.number + dayOfMonth - 1
            }
            return Int64(dayNumber) * 86_400 + Int64(secondOfDay)
        }

        private func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }
    }

    /// Parses a rule; `nil` when `text` is not one.
    public init?(_ text: String) {
        var scanner = RuleScanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset(maximumHours: 24) else { return nil }
        standardOffset = -standard
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if !scanner.atEnd, scanner.peek != UInt8(ascii: ",") {
            guard let given = scanner.offset(maximumHours: 24) else { return nil }
            daylightOffset = -given
        }
        // A daylight name without rules: POSIX leaves the default to the implementation; tzcode uses the
        // US rules, and tzdata never writes such a footer.
        guard scanner.take(UInt8(ascii: ",")), let start = scanner.change(), scanner.take(UInt8(ascii: ",")),
            let end = scanner.change(), scanner.atEnd
        else { return nil }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    /// Seconds east of UTC at `seconds` since 1970 UTC.
    public func offset(atUnixTime seconds: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = LocalDay(number: Int(floorDivide(seconds + Int64(standardOffset), 86_400))).date.year
        // Each year's start (given in standard time) and end (given in daylight time) in UTC.
        let start = daylight.start.localSeconds(in: year) - Int64(standardOffset)
        let end = daylight.end.localSeconds(in: year) - Int64(daylight.offset)
        let isDaylight =
            start < end ? seconds >= start && seconds < end : !(seconds >= end && seconds < start)
        return isDaylight ? daylight.offset : standardOffset
    }

    private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}

/// Reads the parts of a POSIX `TZ` rule.
private struct RuleScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[position] }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// `EST` (three or more letters) or `<+0530>` (quoted: letters, digits, + and -).
    mutating func name() -> Bool {
        if take(UInt8(ascii: "<")) {
            let start = position
            while let byte = peek, byte != UInt8(ascii: ">") {
                guard
                    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                else { return false }
                position += 1
            }
            let length = position - start
            return take(UInt8(ascii: ">")) && length >= 3
        }
        let start = position
        while let byte = peek, isLetter(byte) { position += 1 }
        return position - start >= 3
    }

    /// `[+-]hh[:mm[:ss]]` in seconds (positive west of Greenwich, as POSIX writes it).
    mutating func offset(maximumHours: Int) -> Int? {
        var sign = 1
        if take(UInt8(ascii: "-")) {
            sign = -1
        } else {
            _ = take(UInt8(ascii: "+"))
        }
        guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
        var seconds = hours * 3600
        if take(UInt8(ascii: ":")) {
            guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if take(UInt8(ascii: ":")) {
                guard let rest = number(maximumDigits: 2), rest < 60 else { return nil }
                seconds += rest
            }
        }
        return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`, with an optional `/time`.
    mutating func change() -> POSIXTimeZoneRule.Change? {
        let day: POSIXTimeZoneRule.Change.Day
        if take(UInt8(ascii: "J")) {
            guard let number = number(maximumDigits: 3), (1...365).contains(number) else { return nil }
            day = .julianWithoutLeapDay(number)
        } else if take(UInt8(ascii: "M")) {
            guard let month = number(maximumDigits: 2), (1...12).contains(month), take(UInt8(ascii: ".")),
                let week = number(maximumDigits: 1), (1...5).contains(week), take(UInt8(ascii: ".")),
                let weekday = number(maximumDigits: 1), weekday <= 6
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let number = number(maximumDigits: 3), number <= 365 else { return nil }
            day = .zeroBased(number)
        }
        var secondOfDay = 7200
        if take(UInt8(ascii: "/")) {
            guard let time = offset(maximumHours: 167) else { return nil }
            secondOfDay = time
        }
        return POSIXTimeZoneRule.Change(day: day, secondOfDay: secondOfDay)
    }

    private mutating func number(maximumDigits: Int) -> Int? {
        var value = 0
        var count = 0
        while let byte = peek, isDigit(byte), count < maximumDigits {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            count += 1
            position += 1
        }
        return count == 0 ? nil : value
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
