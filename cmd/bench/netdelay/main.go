// Command netdelay relays TCP connections and delays every byte by half a
// round trip in each direction, for kernels without tc netem
// (CONFIG_NET_SCH_NETEM unset). storage.sh runs it inside the network
// namespace of its sshd, in front of it:
//
//	netdelay -listen 10.213.0.2:2222 -to 127.0.0.1:22 -rtt 10ms
//
// Data is read as it comes and written once its time is due, so many
// requests stay in flight and the bandwidth is the link's: only latency
// is added, as a longer cable would.
package main

import (
	"flag"
	"log"
	"net"
	"time"
)

func main() {
	listen := flag.String("listen", "", "address to accept connections on")
	to := flag.String("to", "", "address to relay them to")
	rtt := flag.Duration("rtt", 10*time.Millisecond, "round-trip time to add")
	flag.Parse()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("netdelay: %v", err)
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Fatalf("netdelay: accept: %v", err)
		}
		go relay(c, *to, *rtt/2)
	}
}

func relay(client net.Conn, to string, oneWay time.Duration) {
	server, err := net.Dial("tcp", to)
	if err != nil {
		log.Printf("netdelay: dial %s: %v", to, err)
		client.Close()
		return
	}
	done := make(chan struct{})
	go func() { delayed(server, client, oneWay); close(done) }()
	delayed(client, server, oneWay)
	<-done
	client.Close()
	server.Close()
}

type chunk struct {
	data []byte
	due  time.Time
}

// delayed copies from src to dst, each chunk written oneWay after it was read.
func delayed(dst, src net.Conn, oneWay time.Duration) {
	queue := make(chan chunk, 4096)
	go func() {
		defer close(queue)
		for {
			buf := make([]byte, 64<<10)
			n, err := src.Read(buf)
			if n > 0 {
				queue <- chunk{buf[:n], time.Now().Add(oneWay)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range queue {
		time.Sleep(time.Until(c.due))
		if _, err := dst.Write(c.data); err != nil {
			src.Close() // stops the reader
			for range queue {
			}
			break
		}
	}
	if tc, ok := dst.(*net.TCPConn); ok {
		tc.CloseWrite() // pass the end of the stream on
	}
}
