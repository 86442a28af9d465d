package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.runtime.ConstantEvaluators;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.runtime.WasmRuntimeException;
import com.dylibso.chicory.wasm.types.ActiveDataSegment;
import com.dylibso.chicory.wasm.types.DataSegment;
import com.dylibso.chicory.wasm.types.MemoryLimits;
import com.dylibso.chicory.wasm.types.PassiveDataSegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.graalvm.polyglot.HostAccess;

/**
 * A WebAssembly linear memory in ONE contiguous {@code byte[]}, so that JavaScript can see it:
 * {@code memory.buffer} is an ArrayBuffer over {@link #buffer()} (GraalJS shares the bytes of a
 * host ByteBuffer, no copy), and writes from either side are seen by the other at once. Chicory's
 * own memories keep one array per 64 KiB page, which no ArrayBuffer can view.
 *
 * <p>{@link #grow} moves the bytes to a larger array, as a growing ArrayBuffer must be a new one.
 * The old ByteBuffer's limit drops to 0, so the old {@code ArrayBuffer.byteLength} reads 0 as a
 * detached buffer's does, and {@code wasm.js} reports views of it as empty (GraalJS cannot detach
 * a host-backed buffer: README, "WebAssembly"). Single-threaded (the instance's context); no
 * shared memory.
 */
public final class LinearMemory implements Memory {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** The most a byte[] holds: 32767 pages of 64 KiB (the Wasm limit is 65536, workerd's isolate limit far less). */
    static final int MAX_PAGES = Integer.MAX_VALUE / PAGE_SIZE;

    private final int initial;
    private final int maximum;
    private byte[] bytes;
    private ByteBuffer view;
    private DataSegment[] segments = new DataSegment[0];
    private int generation;
    private org.graalvm.polyglot.Value jsObject;

    public LinearMemory(MemoryLimits limits) {
        if (limits.shared()) {
            throw new WasmRuntimeException("shared memory is not supported by cellgate");
        }
        this.initial = limits.initialPages();
        this.maximum = Math.min(limits.maximumPages(), MAX_PAGES);
        if (initial > maximum) {
            throw new WasmRuntimeException("memory of " + initial + " pages exceeds the " + MAX_PAGES + " pages cellgate allows");
        }
        this.bytes = new byte[initial * PAGE_SIZE];
    }

    // ---- what wasm.js asks ----

    /** The bytes as a ByteBuffer JavaScript wraps in an ArrayBuffer; a new one after each grow. */
    @HostAccess.Export
    public ByteBuffer buffer() {
        if (view == null) {
            view = ByteBuffer.wrap(bytes);
        }
        return view;
    }

    /** The {@code WebAssembly.Memory} object of this memory in its context (one per memory), or null. */
    @HostAccess.Export
    public org.graalvm.polyglot.Value jsObject() {
        return jsObject;
    }

    @HostAccess.Export
    public void jsObject(org.graalvm.polyglot.Value object) {
        this.jsObject = object;
    }

    /** Changes whenever {@link #buffer()} would answer another buffer. */
    @HostAccess.Export
    public int generation() {
        return generation;
    }

    /** {@code Memory.prototype.grow}: the old size in pages, or -1 when it cannot grow that much. */
    @HostAccess.Export
    public int growBy(int delta) {
        return grow(delta);
    }

    @HostAccess.Export
    public int maximumOrMinusOne() {
        return maximum == Math.min(MemoryLimits.MAX_PAGES, MAX_PAGES) ? -1 : maximum;
    }

    // ---- Memory ----

    @Override
    public int pages() {
        return bytes.length / PAGE_SIZE;
    }

    @Override
    public int grow(int delta) {
        int old = pages();
        if (delta < 0 || (long) old + delta > maximum) {
            return -1;
        }
        if (delta == 0) {
            return old;
        }
        bytes = Arrays.copyOf(bytes, (old + delta) * PAGE_SIZE);
        if (view != null) {
            view.limit(0); // the old ArrayBuffer now reads as detached (byteLength 0)
            view = null;
        }
        generation++;
        return old;
    }

    @Override
    public int initialPages() {
        return initial;
    }

    @Override
    public int maximumPages() {
        return maximum;
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public Object lock(int address) {
        return this;
    }

    @Override
    public int waitOn(int address, int expected, long timeout) {
        throw new WasmRuntimeException("atomic wait on non-shared memory");
    }

    @Override
    public int waitOn(int address, long expected, long timeout) {
        throw new WasmRuntimeException("atomic wait on non-shared memory");
    }

    @Override
    public int notify(int address, int maxThreads) {
        check(address, 4);
        return 0;
    }

    @Override
    public void initialize(Instance instance, DataSegment[] dataSegments) {
        // a copy: the module's segment list is shared by every instance of it
        this.segments = dataSegments == null ? new DataSegment[0] : dataSegments.clone();
        for (int i = 0; i < segments.length; i++) {
            if (segments[i] instanceof ActiveDataSegment a) {
                long[] offset = ConstantEvaluators.computeConstantValue(instance, a.offsetInstructions());
                write((int) offset[0], a.data(), 0, a.data().length);
                segments[i] = PassiveDataSegment.EMPTY; // an active segment is dropped once applied
            }
        }
    }

    @Override
    public void initPassiveSegment(int segmentId, int dest, int offset, int size) {
        byte[] data = segments[segmentId].data();
        if (offset < 0 || size < 0 || (long) offset + size > data.length) {
            throw outOfBounds();
        }
        write(dest, data, offset, size);
    }

    @Override
    public void drop(int segment) {
        segments[segment] = PassiveDataSegment.EMPTY;
    }

    @Override
    public void write(int address, byte[] data, int offset, int size) {
        check(address, size);
        System.arraycopy(data, offset, bytes, address, size);
    }

    @Override
    public byte read(int address) {
        check(address, 1);
        return bytes[address];
    }

    @Override
    public byte[] readBytes(int address, int length) {
        check(address, length);
        return Arrays.copyOfRange(bytes, address, address + length);
    }

    @Override
    public void writeI32(int address, int value) {
        check(address, 4);
        INT.set(bytes, address, value);
    }

    @Override
    public int readInt(int address) {
        check(address, 4);
        return (int) INT.get(bytes, address);
    }

    @Override
    public void writeLong(int address, long value) {
        check(address, 8);
        LONG.set(bytes, address, value);
    }

    @Override
    public long readLong(int address) {
        check(address, 8);
        return (long) LONG.get(bytes, address);
    }

    @Override
    public void writeShort(int address, short value) {
        check(address, 2);
        SHORT.set(bytes, address, value);
    }

    @Override
    public short readShort(int address) {
        check(address, 2);
        return (short) SHORT.get(bytes, address);
    }

    @Override
    public long readU16(int address) {
        return readShort(address) & 0xFFFFL;
    }

    @Override
    public void writeByte(int address, byte value) {
        check(address, 1);
        bytes[address] = value;
    }

    @Override
    public void writeF32(int address, float value) {
        writeI32(address, Float.floatToRawIntBits(value));
    }

    @Override
    public long readF32(int address) {
        return readInt(address) & 0xFFFFFFFFL;
    }

    @Override
    public float readFloat(int address) {
        return Float.intBitsToFloat(readInt(address));
    }

    @Override
    public void writeF64(int address, double value) {
        writeLong(address, Double.doubleToRawLongBits(value));
    }

    @Override
    public double readDouble(int address) {
        return Double.longBitsToDouble(readLong(address));
    }

    @Override
    public long readF64(int address) {
        return readLong(address);
    }

    @Override
    public void zero() {
        Arrays.fill(bytes, (byte) 0);
    }

    @Override
    public void fill(byte value, int fromIndex, int toIndex) {
        check(fromIndex, toIndex - fromIndex);
        Arrays.fill(bytes, fromIndex, toIndex, value);
    }

    @Override
    public void copy(int dest, int src, int size) {
        check(src, size);
        check(dest, size);
        System.arraycopy(bytes, src, bytes, dest, size);
    }

    private void check(int address, int size) {
        // unsigned address: a negative int is an address above 2 GiB, beyond any memory here
        if (address < 0 || size < 0 || (long) address + size > bytes.length) {
            throw outOfBounds();
        }
    }

    private static WasmRuntimeException outOfBounds() {
        return new WasmRuntimeException("out of bounds memory access");
    }
}
