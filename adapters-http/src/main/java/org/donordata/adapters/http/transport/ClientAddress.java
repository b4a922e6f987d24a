package org.donordata.adapters.http.transport;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/** Who a client is, for what is counted per client: its connections here, its wrong keys in the rate limits. */
public final class ClientAddress {

    private ClientAddress() {
    }

    /**
     * The key a client's connections and failures are counted under: its IP address, or for IPv6 its /64 network,
     * since one host is commonly given a whole /64 and could otherwise change its address for every attempt.
     */
    public static String key(SocketAddress peer) {
        if (peer instanceof InetSocketAddress socket && socket.getAddress() != null) {
            InetAddress address = socket.getAddress();
            if (address instanceof Inet6Address) {
                byte[] network = Arrays.copyOf(address.getAddress(), 16);
                Arrays.fill(network, 8, 16, (byte) 0);
                try {
                    return InetAddress.getByAddress(network).getHostAddress() + "/64";
                } catch (UnknownHostException impossible) {
                    throw new IllegalStateException(impossible);
                }
            }
            return address.getHostAddress();
        }
        return peer instanceof InetSocketAddress socket ? socket.getHostString() : String.valueOf(peer);
    }
}
