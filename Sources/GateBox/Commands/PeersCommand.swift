import GateCore
import GateDevices

/// `ts-gate peers`: the boxes this one has bonded with (paired by holding
/// both buttons 5 s), from the bonded peers' file beside the results;
/// `--forget ADDRESS` forgets one (the next pairing bonds it afresh).
/// `--scan` powers the controller on, advertises this box and lists the
/// boxes nearby that advertise seed 002's service: what a person checks
/// first when two boxes do not find each other.
enum PeersCommand {
    static func run(_ options: PeersOptions, console: Console) -> Int32 {
        guard options.scan else { return bonded(options, console: console) }
        var station: BLEStation
        do { station = try BLEStation.open(options.controller) } catch {
            console.problem("ts-gate peers: " + error.message)
            return 1
        }
        defer { station.close() }
        do {
            return try scan(&station, options, console)
        } catch {
            console.problem("ts-gate peers: " + error.message)
            return 1
        }
    }

    static func bonded(_ options: PeersOptions, console: Console) -> Int32 {
        let directory = options.dataDirectory ?? defaultDataDirectory()
        let loaded: (peers: [BondedPeer], problems: [String])
        do { loaded = try BondedPeers.load(dataDirectory: directory) } catch {
            console.problem("ts-gate peers: " + error.message)
            return 1
        }
        for problem in loaded.problems { console.line("ts-gate peers: " + problem) }
        if let text = options.forget {
            guard let address = BluetoothAddress(text: text) else {
                console.problem("ts-gate peers: --forget " + text + ": expected an address such as 00:AA:01:01:00:01")
                return 2
            }
            guard let peer = loaded.peers.first(where: { $0.address.bytes == address.bytes }) else {
                console.problem("ts-gate peers: " + address.text + " is not a bonded peer (see 'ts-gate peers')")
                return 1
            }
            do { try BondedPeers.append(BondedPeers.forgetLine(address), dataDirectory: directory) } catch {
                console.problem("ts-gate peers: " + error.message)
                return 1
            }
            console.line("forgot " + address.text + " " + peer.name + "; hold both buttons 5 s to pair it again")
            return 0
        }
        guard !loaded.peers.isEmpty else {
            console.line("no bonded peers in " + BondedPeers.path(dataDirectory: directory)
                         + "; hold the button 5 s on two boxes to pair them, 'ts-gate peers --scan' lists the boxes nearby")
            return 0
        }
        console.line(String(loaded.peers.count) + " bonded " + (loaded.peers.count == 1 ? "peer" : "peers") + " in "
                     + BondedPeers.path(dataDirectory: directory) + ":")
        for peer in loaded.peers {
            console.line("  " + peer.address.text + "  " + DecimalText.padRight(peer.name, 16) + " " + DecimalText.padRight(peer.deviceId, 16)
                         + " " + (peer.role.isEmpty ? "no race yet" : "last the " + peer.role + " gate")
                         + (peer.key == nil ? "" : ", key kept"))
        }
        return 0
    }

    struct Seen { var address: BluetoothAddress; var name: String; var rssi: Int8 }

    static func scan(_ station: inout BLEStation, _ options: PeersOptions, _ console: Console) throws(GateError) -> Int32 {
        station.controller.powerOn()
        _ = try station.settle(timeoutMillis: 5000)
        station.controller.advertise(name: station.boxName)
        _ = try station.settle(timeoutMillis: 2000)
        guard let info = station.controller.info else { throw GateError(station.controller.deviceName, "no controller information") }
        console.line("scanning " + String(Int(options.seconds)) + " s on " + BLEStation.describe(info) + ", advertising as " + station.boxName)
        let service = AdvertisingData.uuid(gateServiceUUIDText)!
        var seen: [Seen] = []
        var poller = Poller(capacity: 1)
        defer { poller.release() }
        let slot = poller.register(station.socket.descriptor)
        station.controller.startDiscovery()
        let deadline = MonotonicClock.nowNanos() + Int64(options.seconds * 1e9)
        while MonotonicClock.nowNanos() < deadline {
            do { _ = try poller.wait(timeoutMillis: 100) } catch { throw GateError("Bluetooth management socket", error, doing: "poll") }
            _ = poller.isReadable(slot)
            for notice in try station.drain() {
                switch notice {
                case .failed(let error, _, _): throw error
                case .found(let address, let rssi, let data) where data.advertises(service):
                    let name = data.name ?? "(no name)"
                    if let i = seen.firstIndex(where: { $0.address == address }) {
                        seen[i].rssi = rssi
                        if data.name != nil { seen[i].name = name }
                    } else {
                        seen.append(Seen(address: address, name: name, rssi: rssi))
                        console.line("found " + address.text + " " + name + " rssi " + String(rssi))
                    }
                case .discovering(false):
                    // LE discovery ends by itself after ~10 s; keep looking.
                    if MonotonicClock.nowNanos() < deadline { station.controller.startDiscovery() }
                default: break
                }
            }
        }
        if station.controller.discovering { station.controller.stopDiscovery() }
        station.controller.stopAdvertising()
        _ = try? station.settle(timeoutMillis: 2000)
        console.line(String(seen.count) + (seen.count == 1 ? " box" : " boxes") + " nearby advertising " + gateServiceUUIDText)
        for s in seen {
            console.line("  " + s.address.text + "  " + DecimalText.padRight(s.name, 16) + " rssi " + String(s.rssi))
        }
        return 0
    }
}
