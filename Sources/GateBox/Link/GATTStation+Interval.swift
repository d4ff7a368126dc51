import GateCore
import GateDevices

/// The connection interval (issue 47, point 1). Only the central may ask
/// for another one, so a joining box (its host's central) asks for 7.5 ms
/// as soon as the controller reports the link: each clock sync round trip
/// and each crossing message then waits at most one short connection event.
/// The interval is only visible as LE events on a raw HCI socket (and
/// asking for it needs CAP_NET_RAW, which the SD image's service has);
/// without the socket the link keeps the interval the central chose.
extension GATTStation {
    mutating func openHCI<P: GatePlatform>(_ index: UInt16, platform: inout P, say: (String) -> Void) {
        let socket: HCIEventSocket
        do { socket = try HCIEventSocket.open(index: index) } catch {
            say("bluetooth: " + error.message + "; links keep the interval the controller chose")
            return
        }
        guard let slot = platform.watch(socket.descriptor) else {
            socket.close()
            say("bluetooth: no room in the wait for the HCI socket; links keep the interval the controller chose")
            return
        }
        hci = socket
        hciSlot = slot
    }

    mutating func closeHCI<P: GatePlatform>(platform: inout P) {
        guard let hci else { return }
        platform.unwatch(hciSlot)
        hci.close()
        self.hci = nil
        leTable = LEConnectionTable()
    }

    /// Reads the controller's LE events: a link this box opened as central
    /// is asked for 7.5 ms, and the interval in force is said.
    mutating func serviceHCI<P: GatePlatform>(platform: inout P, say: (String) -> Void) {
        guard let hci else { return }
        do {
            while let event = try hci.nextEvent(buffer: buffer) {
                let recorded = leTable.record(event)
                switch event {
                case .connected(_, let handle, let central, let peer, let p) where recorded:
                    say("bluetooth: link to " + peer.text + " as " + (central ? "central" : "peripheral") + ", " + p.text)
                    guard central, p.interval != LEConnectionParameters.fastest.interval else { break }
                    try hci.requestConnectionUpdate(handle: handle, .fastest)
                case .updated(_, _, let p) where recorded:
                    say("bluetooth: link " + p.text)
                case .updated(let status, _, _):
                    say("bluetooth: the link's connection update failed (status " + I2CBus.hex(Int(status)) + ")")
                case .commandStatus(let opcode, let status) where opcode == HCIEventSocket.leConnectionUpdateOpcode && status != 0:
                    say("bluetooth: the controller refused the connection update (status " + I2CBus.hex(Int(status)) + ")")
                default:
                    break
                }
            }
        } catch {
            // A controller switched off (ENETDOWN): opened again when it is back.
            say("bluetooth: " + error.message + "; the link interval is no longer read")
            closeHCI(platform: &platform)
        }
    }
}
