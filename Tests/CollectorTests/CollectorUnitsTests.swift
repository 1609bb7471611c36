import Collector
import Testing

@Suite("The collector's timer")
struct CollectorUnitsTests {
    let units = CollectorUnits(
        executable: "/home/pat/My Apps/100%/gymcard",
        environment: [("XDG_STATE_HOME", "/home/pat/state dir"), ("GYMCARD_OCCUPANCY_URL", "http://x/\"q\"")])

    @Test("every 5 minutes on the clock, catching up after sleep, spread by a fixed random delay")
    func timer() {
        let lines = units.timer.split(separator: "\n").map(String.init)
        for expected in [
            "OnCalendar=*:0/5", "Persistent=true", "RandomizedDelaySec=60", "FixedRandomDelay=true",
            "WantedBy=timers.target",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
    }

    @Test("the service runs the binary by its absolute path, quoted for systemd, with the XDG directories")
    func service() {
        let lines = units.service.split(separator: "\n").map(String.init)
        #expect(lines.contains("Type=oneshot"))
        #expect(lines.contains("ExecStart=\"/home/pat/My Apps/100%%/gymcard\" collect"))
        #expect(lines.contains("Environment=\"XDG_STATE_HOME=/home/pat/state dir\""))
        #expect(lines.contains("Environment=\"GYMCARD_OCCUPANCY_URL=http://x/\\\"q\\\"\""))
    }

    @Test("the crontab line: every 5 minutes, quoted for the shell, % escaped for cron")
    func crontab() {
        #expect(
            units.crontabLine
                == "*/5 * * * * XDG_STATE_HOME='/home/pat/state dir' GYMCARD_OCCUPANCY_URL='http://x/\"q\"' '/home/pat/My Apps/100\\%/gymcard' collect"
        )
    }
}
