package dev.cellgate.core.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecordsTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void ownershipRoundTripsAndReleasedKeepsItsEpoch() {
        OwnershipRecord o = new OwnershipRecord("n1", "s1", 7);
        assertThat(OwnershipRecord.decode(o.encode())).isEqualTo(o);
        OwnershipRecord r = OwnershipRecord.released(7);
        assertThat(r.isReleased()).isTrue();
        assertThat(OwnershipRecord.decode(r.encode())).isEqualTo(r);
        assertThat(new String(r.encode(), StandardCharsets.UTF_8)).contains("\"node\":\"\"").contains("\"epoch\":7");
    }

    @Test
    void leaseRoundTrips() {
        LeaseRecord l = new LeaseRecord("n1", "s", "127.0.0.1:9000", 1, 5, 15, new LeaseRecord.Load(3, 10, false, 1));
        assertThat(LeaseRecord.decode(l.encode())).isEqualTo(l);
        assertThat(l.withExpiry(0).isTombstone()).isTrue();
    }

    @Test
    void malformedRecordsAreRefusedWithTheFieldNamed() {
        assertThatThrownBy(() -> OwnershipRecord.decode(b("{\"node\":\"n\",\"session\":\"s\"}")))
                .isInstanceOf(MalformedRecordException.class).hasMessageContaining("epoch");
        assertThatThrownBy(() -> OwnershipRecord.decode(b("{\"node\":\"n\",\"session\":\"s\",\"epoch\":0}")))
                .isInstanceOf(MalformedRecordException.class);
        assertThatThrownBy(() -> OwnershipRecord.decode(b("{\"node\":1,\"session\":\"s\",\"epoch\":3}")))
                .hasMessageContaining("node");
        assertThatThrownBy(() -> LeaseRecord.decode(b("not json"))).isInstanceOf(MalformedRecordException.class);
        assertThatThrownBy(() -> LeaseRecord.decode(b("{\"node\":\"n\",\"session\":\"s\",\"advertise\":\"a\",\"protocol\":1,"
                + "\"started_ms\":1,\"expires_ms\":\"soon\",\"load\":{}}"))).hasMessageContaining("expires_ms");
        assertThatThrownBy(() -> PeerAuthRecord.decode(b("{\"version\":1,\"key\":\"xyz\",\"created_ms\":1}")))
                .isInstanceOf(MalformedRecordException.class);
        assertThatThrownBy(() -> OwnershipRecord.decode(b("{\"node\":\"n\",\"session\":\"s\",\"epoch\":1.5}")))
                .hasMessageContaining("epoch");
    }
}
